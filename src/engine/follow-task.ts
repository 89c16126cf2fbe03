import { finish, type CallState } from './call-results.ts';
import { callContext } from './call-context.ts';
import type { EngineContext } from './engine-context.ts';
import { OutcomeUnknown } from './errors.ts';
import { withEditNote } from './execute-call.ts';
import type { ToolDefinition } from './tool-definition.ts';
import type { AssistantMessage, LedgerEntry, ToolCall, ToolOutcome } from './records/index.ts';
import { endTaskCards } from './task-cards.ts';
import { recordUnknownOutcome } from './unknown-outcome.ts';

/** A `started` ledger entry whose server took the call as a task. */
export type TaskEntry = LedgerEntry & { task: { id: string } };

export function hasTask(entry: LedgerEntry): entry is TaskEntry {
  return entry.task !== undefined;
}

/**
 * Finishes a call whose run is gone (a reload, a closed tab, a crash) while
 * its server ran it as a task: the tool reads the task's outcome back from
 * the server (waiting while it still runs) and it is stored as the run would
 * have stored it. Nothing runs a second time, and nobody is asked "Outcome
 * unknown" unless the server can no longer say (it forgot the task).
 */
export async function followTask(
  ctx: EngineContext,
  message: AssistantMessage,
  call: ToolCall,
  follow: NonNullable<ToolDefinition['followTask']>,
  entry: TaskEntry,
  edited: boolean,
  signal: AbortSignal,
): Promise<CallState> {
  const { context, shown } = callContext(ctx, message, call, signal);
  let content: string;
  let outcome: ToolOutcome;
  try {
    content = withEditNote(edited, entry.args, await follow(entry.task.id, entry.args, context));
    outcome = 'done';
  } catch (error) {
    // Stopped again: the entry still names the task, and the next run follows it.
    if (signal.aborted) return 'waiting';
    if (error instanceof OutcomeUnknown) {
      await recordUnknownOutcome(ctx, message, call, entry, error.message, true);
      return 'waiting';
    }
    content = `Error: ${call.name} failed: ${error instanceof Error ? error.message : String(error)}`;
    outcome = 'failed';
  }
  // A question the task dropped unanswered (it ended without it) is answered to nobody.
  await endTaskCards(ctx, message, call);
  const finished: LedgerEntry = { ...entry, status: outcome === 'failed' ? 'failed' : 'succeeded', finishedAt: ctx.clock.now(), result: content };
  return finish(ctx, message, call, finished, content, outcome, outcome === 'failed' ? [] : shown.images);
}
