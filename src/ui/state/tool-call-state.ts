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
 * How a tool call stands, from what is stored: its latest tool message (the
 * engine's `outcome`) and the pause points raised for it. `active` says whether
 * the conversation's loop is running, which separates "running" from "not run".
 */
export function toolCallState(result: ToolMessage | undefined, pauses: readonly PausePoint[], active: boolean): ToolCallState {
  if (pauses.some((p) => p.status === 'pending')) return 'awaiting_approval';
  const pending: ToolCallState = active ? 'running' : 'not_run';
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
