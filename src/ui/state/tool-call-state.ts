import type { Message, PausePoint, ToolMessage } from '../../engine/records/index.ts';

export type ToolCallState =
  | 'running'
  | 'awaiting_approval'
  | 'done'
  | 'declined'
  | 'failed'
  | 'unknown'
  | 'expired'
  | 'skipped'
  | 'held'
  | 'not_run';

export const TOOL_CALL_STATE_LABEL: Readonly<Record<ToolCallState, string>> = {
  running: 'Running',
  awaiting_approval: 'Awaiting approval',
  done: 'Done',
  declined: 'Declined',
  failed: 'Failed',
  unknown: 'Outcome unknown',
  expired: 'Expired',
  skipped: 'Skipped',
  held: 'Waiting for your answer',
  not_run: 'Not run',
};

/** The latest tool message for each tool call id (a call can be answered more than once: awaiting, then done). */
export function latestToolResults(messages: readonly Message[]): Map<string, ToolMessage> {
  const results = new Map<string, ToolMessage>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const seen = results.get(message.toolCallId);
    if (!seen || seen.seq < message.seq) results.set(message.toolCallId, message);
  }
  return results;
}

/** A conversation's pause points grouped by the tool call they belong to, oldest first. */
export function pausesByToolCall(pauses: readonly PausePoint[]): Map<string, PausePoint[]> {
  const grouped = new Map<string, PausePoint[]>();
  for (const pause of pauses) {
    const list = grouped.get(pause.toolCallId);
    if (list) list.push(pause);
    else grouped.set(pause.toolCallId, [pause]);
  }
  return grouped;
}

/**
 * Whether the calls of an answer are held: one of its own wait_for_approval
 * cards is pending, and the engine runs none of the answer's other calls until
 * the user has answered it (src/engine/answer-hold.ts).
 */
export function answerHeld(pauses: ReadonlyMap<string, readonly PausePoint[]>, callIds: readonly string[]): boolean {
  return callIds.some((id) => pauses.get(id)?.some((p) => p.origin === 'model' && p.status === 'pending'));
}

/**
 * How a tool call stands, from what is stored: its latest tool message (the
 * engine's `outcome`) and the pause points raised for it. `active` says whether
 * the conversation's loop is running, which separates "running" from "not run";
 * `held` whether a pending card of the same answer holds it back, which is
 * neither: it runs (or asks) once that card is answered.
 */
export function toolCallState(
  result: ToolMessage | undefined,
  pauses: readonly PausePoint[],
  active: boolean,
  held = false,
): ToolCallState {
  if (pauses.some((p) => p.status === 'pending')) return 'awaiting_approval';
  const pending: ToolCallState = held ? 'held' : active ? 'running' : 'not_run';
  if (!result) return pending;
  switch (result.outcome) {
    case 'done':
      return 'done';
    case 'failed':
    case 'invalid':
      return 'failed';
    case 'declined':
      return 'declined';
    case 'unknown':
      return 'unknown';
    case 'expired':
      return 'expired';
    case 'skipped':
      return 'skipped';
    case 'awaiting_approval': {
      const last = pauses.at(-1);
      if (!last) return pending;
      if (last.status === 'expired') return 'expired';
      if (last.resolution === 'decline') return 'declined';
      // The model's own wait_for_approval is complete once decided; a gated call
      // still has to run with the approved arguments.
      return last.origin === 'model' ? 'done' : pending;
    }
  }
}
