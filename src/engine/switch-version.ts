import { CallerError } from './errors.ts';
import type { Conversation } from './records/index.ts';
import { makeCurrent } from './versions/make-current.ts';
import { versionsMayChange } from './versions/version-checks.ts';

/**
 * `Previous version` / `Next version`: the conversation showing `branchId`
 * (the branch versions-at.ts chose for the version asked for). Nothing runs:
 * what the other versions ran or decided stays where it is. An error belonged
 * to the version it happened in, so it is cleared.
 */
export function switchedConversation(conversation: Conversation, branchId: string): Conversation {
  versionsMayChange(conversation, { withPending: false });
  const versions = conversation.versions && makeCurrent(conversation.versions, branchId);
  if (!versions) throw new CallerError('not_found', 'That version no longer exists.');
  return { ...conversation, versions, ...(conversation.state.kind === 'error' ? { state: { kind: 'idle' } } : {}) };
}
