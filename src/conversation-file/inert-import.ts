import { isActive, type Conversation, type ConversationState, type Message, type PausePoint } from '../engine/records/index.ts';
import type { ImportedConversation } from './imported-conversation.ts';

/** What an imported conversation that was working says in its status bar, beside Continue. */
export const IMPORTED_INTERRUPTED_MESSAGE = 'Imported from a file made while it was working. Nothing has run here; press Continue to go on.';

/**
 * A Pausepoint conversation file's records as an import writes them: history,
 * with nothing in it that runs or waits for a decision by itself.
 *
 * - The conversation comes back idle, or interrupted (with Continue) when it was
 *   working or paused; without the device it ran on (sync), so it is this
 *   browser's.
 * - Every card is marked `restored`, and a pending one comes in expired: an
 *   import is a record of decisions made elsewhere, not a question for this
 *   browser, and the engine never runs a call on a restored approval — the
 *   call asks again with a fresh card (src/engine/restored-decisions.ts).
 * - An answer left streaming is interrupted: its run is not here.
 *
 * The ledger is never in the file, so no call reads as started or finished here.
 */
export function inertImport({ conversation, messages, pausePoints }: ImportedConversation): ImportedConversation {
  return {
    conversation: inertConversation(conversation, messages),
    messages: messages.map(inertMessage),
    pausePoints: pausePoints.map(inertPausePoint),
  };
}

function inertConversation({ ownerDevice: _elsewhere, ...conversation }: Conversation, messages: readonly Message[]): Conversation {
  // The next message must come after every imported one, whatever the file said.
  const nextSeq = Math.max(conversation.nextSeq, ...messages.map((m) => m.seq + 1));
  return { ...conversation, nextSeq, state: inertState(conversation.state) };
}

function inertState(state: ConversationState): ConversationState {
  if (isActive(state) || state.kind === 'paused') return { kind: 'error', code: 'interrupted', message: IMPORTED_INTERRUPTED_MESSAGE, retryable: true };
  if (state.kind === 'error' && state.code === 'interrupted') return state;
  return { kind: 'idle' };
}

function inertMessage(message: Message): Message {
  return message.role === 'assistant' && message.status === 'streaming' ? { ...message, status: 'interrupted' } : message;
}

function inertPausePoint(pause: PausePoint): PausePoint {
  const restored = { ...pause, restored: true, expiresAt: null };
  return pause.status === 'pending' ? { ...restored, status: 'expired', expiredReason: 'abandoned' } : restored;
}
