import { finish, finishFromLedger, type CallState } from './call-results.ts';
import type { EngineContext } from './engine-context.ts';
import { OutcomeUnknown } from './errors.ts';
import { parseApprovalMarker } from './marker.ts';
import type { PauseRequest, ToolDefinition } from './tool-definition.ts';
import { ledgerId, MAX_TOOL_IMAGES, type AssistantMessage, type LedgerEntry, type PausePoint, type ToolCall, type ToolImage, type ToolOutcome } from './records/index.ts';
import { createPause } from './pause-for-call.ts';
import { askAboutUnknownOutcome, STOPPED_MID_CALL } from './unknown-outcome.ts';

/**
 * Runs a call that may run: records it in the ledger first (the compare-and-set
 * that keeps a side effect from happening twice), runs the tool, and stores
 * what came of it. A call whose outcome cannot be known — its tool says so
 * (OutcomeUnknown), or the user's Stop cut it short while it acted — is
 * recorded as `unknown` and the user is asked; it is never reported as failed
 * (which invites the model to try again) nor as done.
 */
export async function executeCall(
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
  let images: ToolImage[] = [];
  // A re-run (its first run's tab died before storing the result) finds the card it made, possibly decided since.
  let cardDecided = false;
  try {
    const output = await tool.execute(args, {
      conversationId: message.conversationId,
      toolCallId: call.id,
      turnIndex: message.turnIndex,
      signal,
      pause: async (request) => {
        const card = await pauseForTool(ctx, message, call, request);
        cardDecided = card.status !== 'pending';
        return card.id;
      },
      ask: async (request) => ctx.asks.wait(ctx, await createPause(ctx, message, call, request, 'elicitation'), signal),
      showImages: (shown) => void (images = [...images, ...shown].slice(0, MAX_TOOL_IMAGES)),
    });
    content = edited ? `The user edited the arguments before approving. Final arguments: ${JSON.stringify(args)}\n\n${output}` : output;
    outcome = parseApprovalMarker(output) ? 'awaiting_approval' : 'done';
  } catch (error) {
    if (signal.aborted && tool.safeToRetry?.(args)) {
      // Cut short by Stop, and harmless to repeat: it counts as not run. The
      // entry stays `started`, so the next run runs it again, as after a crash.
      return 'waiting';
    }
    const cause = signal.aborted ? STOPPED_MID_CALL : error instanceof OutcomeUnknown ? error.message : null;
    if (cause !== null) {
      // The cause is kept with the entry for the question; after a Stop the
      // question waits for the next run, as the user asked this one to end.
      const unknown: LedgerEntry = { ...entry, status: 'unknown', result: cause };
      await ctx.storage.putLedgerEntry(unknown);
      if (!signal.aborted) await askAboutUnknownOutcome(ctx, message, call, unknown);
      return 'waiting';
    }
    content = `Error: ${call.name} failed: ${error instanceof Error ? error.message : String(error)}`;
    outcome = 'failed';
  }
  const finished: LedgerEntry = { ...entry, status: outcome === 'failed' ? 'failed' : 'succeeded', finishedAt: ctx.clock.now(), result: content };
  const stored = await finish(ctx, message, call, finished, content, outcome, outcome === 'failed' ? [] : images);
  return outcome === 'awaiting_approval' && !cardDecided ? 'waiting' : stored;
}

/** `context.pause` for tools: idempotent per call, so a re-run finds the card it already made. */
async function pauseForTool(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  request: PauseRequest,
): Promise<{ id: string; status: PausePoint['status'] }> {
  const existing = (await ctx.storage.loadCalls(message.conversationId, [call.id])).pausePoints.find(
    (p) => p.toolCallId === call.id && p.origin === 'model',
  );
  if (existing) return existing;
  return { id: await createPause(ctx, message, call, request, 'model'), status: 'pending' };
}
