import type { ConversationState } from '../../engine/records/index.ts';
import { ACTIVE_STATES } from '../../engine/records/active-states.ts';

export type StatusAction = 'stop' | 'retry' | 'continue' | null;
export type StatusTone = 'idle' | 'busy' | 'attention' | 'error';

export interface StatusView {
  text: string;
  action: StatusAction;
  tone: StatusTone;
}

export { ACTIVE_STATES };

/** Whether some tab's worker drives this conversation's loop (its state is one of `ACTIVE_STATES`). */
export function isActive(state: ConversationState): boolean {
  return activeOwner(state) !== null;
}

/** Whether this conversation's loop runs in the tab whose id is `tabId`. */
export function runsInTab(state: ConversationState, tabId: string): boolean {
  return activeOwner(state) === tabId;
}

function activeOwner(state: ConversationState): string | null {
  switch (state.kind) {
    case 'running':
    case 'retrying':
    case 'waiting_for_network':
      return state.owner;
    default:
      return null;
  }
}

function clock(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** What the status bar says for a conversation state, and which button it offers. */
export function describeState(state: ConversationState): StatusView {
  switch (state.kind) {
    case 'idle':
      return { text: 'Ready', action: null, tone: 'idle' };
    case 'running':
      return { text: 'Running…', action: 'stop', tone: 'busy' };
    case 'paused': {
      const n = state.pending;
      const text = n > 0 ? `Paused — awaiting ${n} ${n === 1 ? 'approval' : 'approvals'}` : 'Paused';
      return { text, action: null, tone: 'attention' };
    }
    case 'retrying':
      return {
        text: `Retrying — attempt ${state.attempt} at ${clock(state.retryAt)}${state.reason ? ` (${state.reason})` : ''}`,
        action: 'stop',
        tone: 'busy',
      };
    case 'waiting_for_network':
      return { text: 'Waiting for network…', action: 'stop', tone: 'busy' };
    case 'error':
      switch (state.code) {
        case 'stopped':
          return { text: `Stopped${state.message ? `: ${state.message}` : ''}`, action: 'continue', tone: 'idle' };
        case 'interrupted':
          return { text: `Interrupted: ${state.message}`, action: 'continue', tone: 'attention' };
        case 'step_limit':
          return { text: `Step limit reached: ${state.message}`, action: 'continue', tone: 'attention' };
        default:
          return { text: `Error: ${state.message}`, action: 'retry', tone: 'error' };
      }
  }
}
