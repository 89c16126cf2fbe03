import { finish, finishFromLedger, type CallState } from './call-results.ts';
import type { EngineContext } from './engine-context.ts';
import { OutcomeUnknown } from './errors.ts';
import { parseApprovalMarker } from './marker.ts';
import { callContext } from './call-context.ts';
import type { ToolDefinition } from './tool-definition.ts';
import { ledgerId, type AssistantMessage, type LedgerEntry, type ToolCall, type ToolOutcome } from './records/index.ts';
import { recordUnknownOutcome, STOPPED_MID_CALL } from './unknown-outcome.ts';

/** The text the model reads for a call's output: with the final arguments first when the user edited them. */
export function withEditNote(edited: boolean, args: unknown, output: string): string {
  return edited ? `The user edited the arguments before approving. Final arguments: ${JSON.stringify(args)}\n\n${output}` : output;
}

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
  const { context, shown } = callContext(ctx, message, call, signal);
  let current = entry;
  try {
    const output = await tool.execute(args, {
      ...context,
      // Written before the tool goes on: from here a reload reads the task's outcome back instead of asking (follow-task.ts).
      recordTask: async (task) => {
        current = { ...current, task: { id: task.id } };
        await ctx.storage.putLedgerEntry(current);
      },
    });
    content = withEditNote(edited, args, output);
    outcome = parseApprovalMarker(output) ? 'awaiting_approval' : 'done';
  } catch (error) {
    if (signal.aborted && (tool.safeToRetry?.(args) || (current.task && tool.followTask))) {
      // Cut short by Stop, and harmless to repeat or a task the server goes on
      // with: the entry stays `started`, so the next run runs it again (as
      // after a crash) or reads the task's outcome back.
      return 'waiting';
    }
    const cause = signal.aborted ? STOPPED_MID_CALL : error instanceof OutcomeUnknown ? error.message : null;
    if (cause !== null) {
      await recordUnknownOutcome(ctx, message, call, current, cause, !signal.aborted);
      return 'waiting';
    }
    content = `Error: ${call.name} failed: ${error instanceof Error ? error.message : String(error)}`;
    outcome = 'failed';
  }
  const finished: LedgerEntry = { ...current, status: outcome === 'failed' ? 'failed' : 'succeeded', finishedAt: ctx.clock.now(), result: content };
  const stored = await finish(ctx, message, call, finished, content, outcome, outcome === 'failed' ? [] : shown.images, outcome === 'failed' ? undefined : shown.appResult, outcome === 'failed' ? undefined : shown.view);
  return outcome === 'awaiting_approval' && !shown.cardDecided ? 'waiting' : stored;
}
