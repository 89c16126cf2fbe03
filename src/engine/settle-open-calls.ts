import type { EngineContext } from './engine-context-type.ts';
import { parseApprovalMarker } from './marker.ts';
import { parseCall } from './parse-call.ts';
import type { CallRecords, MessageDraft, PauseRequest, ToolDefinition } from './ports.ts';
import { ledgerId, type AssistantMessage, type LedgerEntry, type Message, type PausePoint, type ToolCall, type ToolOutcome } from './records/index.ts';
import { expiryReason } from './decision-message.ts';
import { OutcomeUnknown } from './errors.ts';

export const UNKNOWN_OUTCOME_OPTIONS = ['Run again', 'Treat as done', 'Skip'] as const;

/** A call waits for a person, or is settled with the result stored for it. */
type CallState = 'waiting' | Message;

export interface Settled {
  /** How many calls still wait for a person. */
  waiting: number;
  /** The results stored by this pass, in the order they were stored. */
  results: Message[];
  /**
   * Gates' questions, not stored yet: the caller stores them with the paused
   * state, in one transaction. (Until then a gated call has neither a result
   * nor a pause point, so a run that dies first asks its gate again.)
   */
  questions: PausePoint[];
  /**
   * Whether a tool asked the user while it ran (`ToolContext.ask`): the
   * decision wrote a message into the history meanwhile, so the caller must
   * read the history again rather than go on from what it read.
   */
  asked: boolean;
}

/**
 * Brings every open call of the last assistant message as far as it can go:
 * invalid calls get an error result, ungated calls run, gated calls pause (or,
 * once decided, run with the final arguments or report the refusal), and calls
 * a dead tab left mid-execution ask the user what happened.
 */
export async function settleOpenCalls(
  ctx: EngineContext,
  message: AssistantMessage,
  open: readonly ToolCall[],
  signal: AbortSignal,
  /** The calls' stored records when the caller knows them without reading (calls it has just stored: none). */
  known?: CallRecords,
): Promise<Settled> {
  const records = known ?? (await ctx.storage.loadCalls(message.conversationId, open.map((call) => call.id)));
  const byCall = new Map<string, PausePoint[]>();
  for (const pause of records.pausePoints) {
    const list = byCall.get(pause.toolCallId);
    if (list) list.push(pause);
    else byCall.set(pause.toolCallId, [pause]);
  }
  const ledger = new Map(records.ledger.map((entry) => [entry.toolCallId, entry]));

  const settled: Settled = { waiting: 0, results: [], questions: [], asked: false };
  const hooks: CallHooks = { ask: (question) => void settled.questions.push(question), asked: () => void (settled.asked = true) };
  for (const call of open) {
    if (signal.aborted) break;
    const stored = { pauses: byCall.get(call.id) ?? [], ledger: ledger.get(call.id) };
    const state = await settleCall(ctx, message, call, stored, hooks, signal);
    if (state === 'waiting') settled.waiting++;
    else settled.results.push(state);
  }
  return settled;
}

/** What a call's settling tells the pass it is part of. */
interface CallHooks {
  /** A gate's question, to store with the paused state. */
  ask(question: PausePoint): void;
  /** The tool asked the user while it ran. */
  asked(): void;
}

async function settleCall(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  /** What storage held for this call when this step read it. */
  { pauses, ledger }: { pauses: readonly PausePoint[]; ledger: LedgerEntry | undefined },
  hooks: CallHooks,
  signal: AbortSignal,
): Promise<CallState> {
  const result = (content: string, outcome: ToolOutcome) => writeResult(ctx, message, call, content, outcome);

  const parsed = parseCall(call, ctx.tools);
  if (!parsed.ok) return result(parsed.error, 'invalid');
  const { tool } = parsed;
  let args = parsed.args;

  const unknownPause = pauses.find((p) => p.origin === 'unknown_outcome');
  let reopen: LedgerEntry['status'][] = [];

  if (ledger) {
    switch (ledger.status) {
      case 'succeeded':
      case 'failed':
        return finishFromLedger(ctx, message, call, ledger, pauses);
      case 'skipped':
        return result('Not run: the user chose to skip this call after an interruption.', 'skipped');
      case 'started':
        if (tool.safeToRetry?.(ledger.args)) {
          reopen = ['started'];
          break;
        }
        await ctx.storage.putLedgerEntry({ ...ledger, status: 'unknown' });
        await askAboutUnknownOutcome(ctx, message, call, ledger);
        return 'waiting';
      case 'unknown': {
        if (!unknownPause) {
          await askAboutUnknownOutcome(ctx, message, call, ledger);
          return 'waiting';
        }
        if (unknownPause.status === 'pending') return 'waiting';
        const choice = unknownPause.status === 'resolved' ? unknownPause.resolution : 'Skip';
        if (choice === 'Treat as done') {
          const content = 'The user confirmed this action completed before an interruption; its result was not recorded.';
          return finish(ctx, message, call, { ...ledger, status: 'succeeded', finishedAt: ctx.clock.now(), result: null }, content, 'done');
        }
        if (choice !== 'Run again') {
          const content = 'Not run: the user chose to skip this call after an interruption.';
          return finish(ctx, message, call, { ...ledger, status: 'skipped', finishedAt: ctx.clock.now() }, content, 'skipped');
        }
        reopen = ['unknown'];
        args = ledger.args;
        break;
      }
    }
  }

  let edited = false;
  if (tool.gate && reopen.length === 0) {
    const gatePause = pauses.find((p) => p.origin === 'gate');
    if (!gatePause) {
      const question = tool.gate(args);
      if (question) {
        hooks.ask(pausePointFor(ctx, message, call, { ...question, options: null, payload: args, kind: 'approval' }, 'gate'));
        return 'waiting';
      }
    } else if (gatePause.status === 'pending') {
      return 'waiting';
    } else if (gatePause.status === 'expired') {
      return result(`Not run: the approval request expired because ${expiryReason(gatePause)}.`, 'expired');
    } else if (gatePause.resolution !== 'approve') {
      const reason = gatePause.reason?.trim();
      return result(
        `The user declined this call, so it was not run. ${reason ? `Reason: ${reason}` : 'No reason was given.'} Do not retry it as is; take another path or ask the user.`,
        'declined',
      );
    } else if (gatePause.editedPayload !== undefined) {
      // Checked against the tool's schema when the user decided; parsed again so the tool gets defaults applied.
      args = tool.input.parse(gatePause.editedPayload);
      edited = true;
    }
  }

  return execute(ctx, message, call, tool, args, edited, { previous: ledger, reopen }, hooks, signal);
}

async function execute(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  tool: ToolDefinition,
  args: unknown,
  edited: boolean,
  /**
   * The entry this step read (if any) and the statuses it may be reopened from.
   * `beginExecution` checks again in its transaction; `previous` only counts attempts.
   */
  { previous, reopen }: { previous: LedgerEntry | undefined; reopen: LedgerEntry['status'][] },
  hooks: CallHooks,
  signal: AbortSignal,
): Promise<CallState> {
  const id = ledgerId(message.conversationId, call.id);
  const entry: LedgerEntry = {
    v: 1,
    id,
    conversationId: message.conversationId,
    toolCallId: call.id,
    toolName: call.name,
    args,
    status: 'started',
    attempts: (previous?.attempts ?? 0) + 1,
    startedAt: ctx.clock.now(),
    finishedAt: null,
    result: null,
  };
  if (!(await ctx.storage.beginExecution(entry, reopen))) {
    // Another run got here first (two tabs racing): never run it a second time.
    const winner = await ctx.storage.getLedgerEntry(id);
    if (winner && (winner.status === 'succeeded' || winner.status === 'failed')) {
      return finishFromLedger(ctx, message, call, winner, []);
    }
    return 'waiting';
  }

  let content: string;
  let outcome: ToolOutcome;
  try {
    const output = await tool.execute(args, {
      conversationId: message.conversationId,
      toolCallId: call.id,
      turnIndex: message.turnIndex,
      signal,
      pause: (request) => pauseForTool(ctx, message, call, request),
      ask: async (request) => {
        hooks.asked();
        const id = await createPause(ctx, message, call, request, 'elicitation');
        return ctx.asks.wait(ctx, id, signal);
      },
    });
    content = edited ? `The user edited the arguments before approving. Final arguments: ${JSON.stringify(args)}\n\n${output}` : output;
    outcome = parseApprovalMarker(output) ? 'awaiting_approval' : 'done';
  } catch (error) {
    if (error instanceof OutcomeUnknown) {
      // The request left and nothing says what became of it: neither failed (which
      // invites a retry) nor done. The user is asked, as after a crash mid-call.
      const unknown: LedgerEntry = { ...entry, status: 'unknown' };
      await ctx.storage.putLedgerEntry(unknown);
      await askAboutUnknownOutcome(ctx, message, call, unknown, error.message);
      return 'waiting';
    }
    content = `Error: ${call.name} failed: ${error instanceof Error ? error.message : String(error)}`;
    outcome = 'failed';
  }
  const finished: LedgerEntry = { ...entry, status: outcome === 'failed' ? 'failed' : 'succeeded', finishedAt: ctx.clock.now(), result: content };
  const stored = await finish(ctx, message, call, finished, content, outcome);
  return outcome === 'awaiting_approval' ? 'waiting' : stored;
}

/**
 * A finished call is stored in one write: its ledger entry with the result the
 * model reads, so a tab that dies after the tool ran either stored both (and
 * nothing runs again) or neither (and the entry still says `started`).
 */
async function finish(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  entry: LedgerEntry,
  content: string,
  outcome: ToolOutcome,
): Promise<Message> {
  return ctx.storage.finishExecution(entry, resultDraft(ctx, message, call, content, outcome));
}

/** A ledger entry finished without its result stored next to it (written by an earlier version, which stored them apart). */
async function finishFromLedger(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  ledger: LedgerEntry,
  pauses: readonly PausePoint[],
): Promise<CallState> {
  const content = ledger.result ?? 'The tool ran; its result was not recorded.';
  const marker = parseApprovalMarker(content);
  const outcome: ToolOutcome = ledger.status === 'failed' ? 'failed' : marker ? 'awaiting_approval' : 'done';
  const stored = await writeResult(ctx, message, call, content, outcome);
  const stillPending = marker !== null && pauses.some((p) => p.id === marker && p.status === 'pending');
  return stillPending ? 'waiting' : stored;
}

async function writeResult(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  content: string,
  outcome: ToolOutcome,
): Promise<Message> {
  const [stored] = await ctx.storage.appendMessages(message.conversationId, [resultDraft(ctx, message, call, content, outcome)]);
  return stored!;
}

function resultDraft(ctx: EngineContext, message: AssistantMessage, call: ToolCall, content: string, outcome: ToolOutcome): MessageDraft {
  return {
    v: 1,
    id: ctx.ids.uuid(),
    conversationId: message.conversationId,
    createdAt: ctx.clock.now(),
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content,
    outcome,
  };
}

/** `context.pause` for tools: idempotent per call, so a re-run finds the card it already made. */
async function pauseForTool(ctx: EngineContext, message: AssistantMessage, call: ToolCall, request: PauseRequest): Promise<string> {
  const existing = (await ctx.storage.loadCalls(message.conversationId, [call.id])).pausePoints.find(
    (p) => p.toolCallId === call.id && p.origin === 'model',
  );
  if (existing) return existing.id;
  return createPause(ctx, message, call, request, 'model');
}

async function askAboutUnknownOutcome(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  ledger: LedgerEntry,
  /** What went wrong, when the tool said (`OutcomeUnknown`); otherwise the run was interrupted. */
  why?: string,
) {
  const description = [
    why
      ? `**${call.name}** did not report how it ended: ${why} Pausepoint cannot tell whether the action happened.`
      : `Pausepoint was interrupted (the tab closed or crashed) while **${call.name}** was running, so it cannot tell whether the action happened.`,
    '',
    'It will not run it again on its own. Choose **Run again** only if you are sure it did not happen; **Treat as done** if it did; **Skip** to tell the assistant it was not done.',
  ].join('\n');
  await createPause(
    ctx,
    message,
    call,
    { title: `Did “${call.name}” finish?`, description, options: [...UNKNOWN_OUTCOME_OPTIONS], payload: ledger.args, kind: 'choice' },
    'unknown_outcome',
  );
}

async function createPause(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  request: PauseRequest,
  origin: PausePoint['origin'],
): Promise<string> {
  const pause = pausePointFor(ctx, message, call, request, origin);
  await ctx.storage.createPausePoint(pause);
  ctx.onPause(pause);
  return pause.id;
}

function pausePointFor(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  request: PauseRequest,
  origin: PausePoint['origin'],
): PausePoint {
  const now = ctx.clock.now();
  const expiry = ctx.expiryMs();
  return {
    v: 1,
    id: ctx.ids.uuid(),
    conversationId: message.conversationId,
    turnIndex: message.turnIndex,
    title: request.title,
    description: request.description,
    options: request.options,
    payload: request.payload ?? null,
    kind: request.kind,
    status: 'pending',
    resolution: null,
    resolvedAt: null,
    createdAt: now,
    origin,
    toolCallId: call.id,
    toolName: call.name,
    expiresAt: expiry === null ? null : now + expiry,
  };
}
