import type { EngineContext } from './engine-context.ts';
import { endTaskCards } from './task-cards.ts';
import { createPause } from './pause-for-call.ts';
import type { AssistantMessage, LedgerEntry, PausePoint, ToolCall } from './records/index.ts';

export const UNKNOWN_OUTCOME_OPTIONS = ['Run again', 'Treat as done', 'Skip'] as const;

/** Recorded as the cause of an unknown outcome when the user's Stop cut a call short. */
export const STOPPED_MID_CALL = 'Stopped by the user while it was running.';

/**
 * The "Outcome unknown" question of the ledger entry's current attempt, if it
 * was asked: the newest one made since that attempt started. (An earlier
 * attempt's question, answered "Run again", started this attempt: it is no
 * answer to this one.)
 */
export function currentUnknownPause(pauses: readonly PausePoint[], ledger: LedgerEntry): PausePoint | undefined {
  return pauses.findLast((p) => p.origin === 'unknown_outcome' && p.createdAt >= ledger.startedAt);
}

/**
 * Asks the user what became of a call whose outcome is unknown: a tab died
 * while it ran (`ledger.result` is null), or its tool or the user's Stop
 * recorded why it cannot tell (`ledger.result` holds that cause).
 */
export async function askAboutUnknownOutcome(ctx: EngineContext, message: AssistantMessage, call: ToolCall, ledger: LedgerEntry): Promise<void> {
  // The task's questions go with it: this question replaces them.
  if (ledger.task) await endTaskCards(ctx, message, call);
  const description = [
    whatHappened(call.name, ledger.result?.trim() || null),
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

/**
 * Records a call's outcome as unknown with its cause, kept with the entry for
 * the question; `askNow` false (after a Stop) leaves the question to the next
 * run, as the user asked this one to end.
 */
export async function recordUnknownOutcome(ctx: EngineContext, message: AssistantMessage, call: ToolCall, entry: LedgerEntry, cause: string, askNow: boolean): Promise<void> {
  const unknown: LedgerEntry = { ...entry, status: 'unknown', result: cause };
  await ctx.storage.putLedgerEntry(unknown);
  if (askNow) await askAboutUnknownOutcome(ctx, message, call, unknown);
}

function whatHappened(tool: string, cause: string | null): string {
  if (cause === null) {
    return `Pausepoint was interrupted (the tab closed or crashed) while **${tool}** was running, so it cannot tell whether the action happened.`;
  }
  if (cause === STOPPED_MID_CALL) {
    return `You pressed Stop while **${tool}** was running, so Pausepoint cannot tell whether the action happened: the other side may have acted already.`;
  }
  return `**${tool}** could not tell whether its action happened. It reported: ${inlineCode(cause)}`;
}

/**
 * Text as one markdown code span that the text cannot end early (its fence is
 * longer than any run of backticks in it) nor break onto a line of its own:
 * a cause may quote what a server said, and must not forge the card's wording.
 */
function inlineCode(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${flat} ${fence}`;
}
