import { CallerError } from '../errors.ts';
import { isActive, type Conversation } from '../records/index.ts';

export const BUSY_MESSAGE = 'The assistant is still working on this conversation: wait for it, or press Stop.';

/**
 * A conversation whose versions may change now: nothing runs it (a run reads
 * one version from start to end), and `withPending` says whether cards may
 * wait (Edit sets them aside as Send does; Regenerate and switching do not).
 * Throws `CallerError` otherwise, inside the caller's transaction.
 */
export function versionsMayChange(conversation: Conversation, { withPending }: { withPending: boolean }): Conversation {
  if (isActive(conversation.state)) throw new CallerError('busy', BUSY_MESSAGE);
  if (!withPending && conversation.state.kind === 'paused') {
    throw new CallerError('busy', 'An approval is waiting in this conversation: decide it first.');
  }
  return conversation;
}
