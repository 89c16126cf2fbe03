import { answerHold } from './answer-hold.ts';
import { finish, finishFromLedger, writeResult, type CallState } from './call-results.ts';
import { askedAgain, changedSinceCard } from './changed-since-card.ts';
import { decideByRules } from './decide-by-rules.ts';
import { decideGate } from './decide-gate.ts';
import type { EngineContext } from './engine-context.ts';
import { executeCall } from './execute-call.ts';
import { followTask, hasTask } from './follow-task.ts';
import { irreversibleFlag } from './irreversible-flag.ts';
import { parseCall } from './parse-call.ts';
import { pausePointFor } from './pause-for-call.ts';
import type { CallRecords } from './storage-port.ts';
import type { AssistantMessage, LedgerEntry, Message, PausePoint, PauseRule, ToolCall, ToolOutcome } from './records/index.ts';
import { decisionsMadeHere } from './restored-decisions.ts';
import { restoredStartArgs, restoredStartPauses, restoredStartQuestion } from './restored-start.ts';
import { askAboutUnknownOutcome, currentUnknownPause } from './unknown-outcome.ts';
import { WAIT_FOR_APPROVAL } from './wait-for-approval.ts';

export { UNKNOWN_OUTCOME_OPTIONS } from './unknown-outcome.ts';

/**
 * How many calls of one model answer run at most. An answer is one unit of
 * work the user oversees; a page that talks the model into a burst of calls
 * gets this many, and the rest are answered without running or asking.
 */
export const MAX_CALLS_PER_ANSWER = 8;
export const TOO_MANY_CALLS = `Not run: too many calls in one answer (at most ${MAX_CALLS_PER_ANSWER} are run per answer).`;

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
}

/** What storage held for one call when this pass read it. */
interface StoredCall {
  pauses: readonly PausePoint[];
  ledger: LedgerEntry | undefined;
}

/**
 * Brings every open call of the last assistant message as far as it can go:
 * calls past the cap are answered unrun; the model's own cards are asked
 * first, and until they are answered the answer's other calls wait (see
 * answer-hold.ts); then invalid calls get an error result, ungated calls run,
 * gated calls pause (or, once decided, run with the final arguments or report
 * the refusal), and calls a dead tab left mid-execution ask the user what happened.
 */
export async function settleOpenCalls(
  ctx: EngineContext,
  message: AssistantMessage,
  open: readonly ToolCall[],
  signal: AbortSignal,
  /** The calls' stored records when the caller knows them without reading (calls it has just stored: none). */
  known?: CallRecords,
): Promise<Settled> {
  const counted = message.toolCalls.slice(0, MAX_CALLS_PER_ANSWER);
  const cards = counted.filter((call) => call.name === WAIT_FOR_APPROVAL);
  const stored = byCall(known ?? (await ctx.storage.loadCalls(message.conversationId, callsToRead(message, open))));
  const storedFor = (call: ToolCall): StoredCall => stored.get(call.id) ?? { pauses: [], ledger: undefined };

  const settled: Settled = { waiting: 0, results: [], questions: [] };
  const record = (state: CallState) => {
    if (state === 'waiting') settled.waiting++;
    else settled.results.push(state);
    return state;
  };
  const settle = async (call: ToolCall) => {
    // A restored backup's approvals are not decisions made here: the call asks again.
    const { pauses, ledger } = storedFor(call);
    const here = decisionsMadeHere(pauses);
    return record(await settleCall(ctx, message, call, { pauses: here.pauses, ledger }, (question) => settled.questions.push(here.explain(question)), signal));
  };

  const counts = new Set(counted.map((call) => call.id));
  for (const call of open) if (!counts.has(call.id)) record(await writeResult(ctx, message, call, TOO_MANY_CALLS, 'skipped'));

  const isOpen = new Set(open.map((call) => call.id));
  let asking = false;
  for (const call of cards) {
    if (signal.aborted) return settled;
    if (isOpen.has(call.id) && (await settle(call)) === 'waiting') asking = true;
  }
  const hold = answerHold(
    cards.flatMap((call) => storedFor(call).pauses.findLast((p) => p.origin === 'model') ?? []),
    asking,
  );

  for (const call of open) {
    if (signal.aborted) break;
    if (!counts.has(call.id) || call.name === WAIT_FOR_APPROVAL) continue;
    // A call with a ledger entry has started already (before the card, by an earlier version): it is finished as usual.
    if (hold.kind === 'go' || storedFor(call).ledger) await settle(call);
    else if (hold.kind === 'wait') record('waiting');
    else record(await writeResult(ctx, message, call, hold.content, hold.outcome));
  }
  return settled;
}

/**
 * The calls whose stored records settling `open` reads: the open ones, and
 * the answer's own cards, answered or not (their pause points say whether the
 * others may go on). The loop's step reads these with it (`StoragePort.loadStep`).
 */
export function callsToRead(message: AssistantMessage, open: readonly ToolCall[]): string[] {
  const cards = message.toolCalls.slice(0, MAX_CALLS_PER_ANSWER).filter((call) => call.name === WAIT_FOR_APPROVAL);
  return [...new Set([...open, ...cards].map((call) => call.id))];
}

function byCall(records: CallRecords): Map<string, StoredCall> {
  const calls = new Map<string, { pauses: PausePoint[]; ledger: LedgerEntry | undefined }>();
  const of = (id: string) => {
    let entry = calls.get(id);
    if (!entry) calls.set(id, (entry = { pauses: [], ledger: undefined }));
    return entry;
  };
  for (const pause of records.pausePoints) of(pause.toolCallId).pauses.push(pause);
  for (const entry of records.ledger) of(entry.toolCallId).ledger = entry;
  return calls;
}

async function settleCall(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  { pauses, ledger }: StoredCall,
  ask: (question: PausePoint) => void,
  signal: AbortSignal,
): Promise<CallState> {
  const result = (content: string, outcome: ToolOutcome) => writeResult(ctx, message, call, content, outcome);

  // A view's call is checked as the view's: a tool only the model may call is refused to it (call-from-view.ts).
  const parsed = parseCall(call, ctx.tools, message.fromView ? 'app' : 'model');
  if (!parsed.ok) return result(parsed.error, 'invalid');
  const { tool } = parsed;
  let args = parsed.args;
  let reopen: LedgerEntry['status'][] = [];
  // The gate's questions that count for this attempt: for a retry, only those asked since the user chose it.
  let gatePauses = pauses.filter((p) => p.origin === 'gate');
  // Set for a `started` entry a backup brought: the call asks, whatever its gate would say.
  let mustAsk = false;

  if (ledger) {
    switch (ledger.status) {
      case 'succeeded':
      case 'failed':
        return finishFromLedger(ctx, message, call, ledger, pauses);
      case 'skipped':
        return result('Not run: the user chose to skip this call after an interruption.', 'skipped');
      case 'started': {
        // Nobody here saw a restored entry's call approved or start: a fresh gate
        // card about the arguments it ran with, as "Run again" asks (restored-start.ts).
        const restored = restoredStartArgs(tool, call, ledger);
        if (restored) {
          reopen = ['started'];
          args = restored.args;
          gatePauses = restoredStartPauses(gatePauses, args);
          mustAsk = true;
          break;
        }
        const edited = gatePauses.at(-1)?.editedPayload !== undefined;
        const follow = tool.followTask;
        if (hasTask(ledger) && follow) {
          // Its server runs it as a task: the outcome is read back from there, never asked about, never run again.
          return followTask(ctx, message, call, (id, args, context) => follow.call(tool, id, args, context), ledger, edited, signal);
        }
        if (tool.safeToRetry?.(ledger.args) && ledger.restored !== true) {
          // The same attempt again, after its tab died or a Stop cut it short:
          // with the arguments its gate let through, and no new question.
          return executeCall(ctx, message, call, tool, ledger.args, edited, { previous: ledger, reopen: ['started'] }, signal);
        }
        await ctx.storage.putLedgerEntry({ ...ledger, status: 'unknown' });
        await askAboutUnknownOutcome(ctx, message, call, ledger);
        return 'waiting';
      }
      case 'unknown': {
        const unknownPause = currentUnknownPause(pauses, ledger);
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
        // Run again is a new attempt: it passes the gate afresh, asked about
        // the arguments the call ran with (never the model's original ones).
        // Its question is made after the user's choice, so it is listed after
        // the unknown-outcome pause; the earlier attempt's question is before.
        reopen = ['unknown'];
        args = ledger.args;
        gatePauses = pauses.slice(pauses.indexOf(unknownPause) + 1).filter((p) => p.origin === 'gate');
        break;
      }
    }
  }

  // The card of a call that a dry-run rule would have decided says so.
  let wouldHave: { dryRuns?: PauseRule[] } = {};
  if (!ledger) {
    // Approval rules decide before the tool's own gate (decide-by-rules.ts).
    const ruled = await decideByRules(ctx, message, call, tool, args, pauses);
    if (ruled.kind === 'refuse') return result(ruled.content, 'declined');
    if (ruled.kind === 'ask') {
      ask(ruled.question);
      return 'waiting';
    }
    if (ruled.kind === 'run') return executeCall(ctx, message, call, tool, args, false, { previous: undefined, reopen: [] }, signal);
    if (ruled.dryRuns) wouldHave = { dryRuns: ruled.dryRuns };
  }

  const asked = gatePauses.at(-1);
  const gate = mustAsk && !asked ? { kind: 'ask' as const, question: restoredStartQuestion(tool, call, args) } : decideGate(tool, args, asked);
  switch (gate.kind) {
    case 'ask':
      ask({ ...(await pausePointFor(ctx, message, call, { ...gate.question, options: null, payload: args, kind: 'approval' }, 'gate')), ...wouldHave, ...irreversibleFlag(tool, args) });
      return 'waiting';
    case 'waiting':
      return 'waiting';
    case 'refused':
      return result(gate.content, gate.outcome);
    case 'run': {
      // An approval is for the definition its card showed: a tool changed since asks again, and nothing runs.
      const card = gatePauses.at(-1);
      if (card && (await changedSinceCard(ctx, call, card))) {
        ask({ ...(await pausePointFor(ctx, message, call, { ...askedAgain(tool, call, args), options: null, payload: args, kind: 'approval' }, 'gate')), ...irreversibleFlag(tool, args) });
        return 'waiting';
      }
      return executeCall(ctx, message, call, tool, gate.args, gate.edited, { previous: ledger, reopen }, signal);
    }
  }
}
