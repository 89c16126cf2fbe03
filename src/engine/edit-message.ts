import { CallerError } from './errors.ts';
import type { AttachmentRef, Conversation, Message, UserMessage } from './records/index.ts';
import { currentPath, onPath } from './versions/current-path.ts';
import { fork } from './versions/fork.ts';
import { versionsMayChange } from './versions/version-checks.ts';

/**
 * The message Edit may replace: one the person wrote (not a decision's
 * message, which states what a card decided), stored in this conversation.
 * Read before the edit's transaction: messages are append-only, so its
 * `seq` and `branch` are what they were. Whether it is in the version
 * shown is checked in the transaction (`editedConversation`).
 */
export function editableMessage(history: readonly Message[], messageId: string): UserMessage {
  const target = history.find((m) => m.id === messageId);
  if (!target) throw new CallerError('not_found', 'That message no longer exists.');
  if (target.role !== 'user' || target.decision) throw new CallerError('invalid_version', 'Only a message you wrote can be edited.');
  return target;
}

/**
 * The files an edit of `target` keeps: those whose ids `keep` names (ids are
 * untrusted input: one the message does not have keeps nothing), or all of
 * them without `keep`. A message needs words or a file.
 */
export function keptFiles(target: UserMessage, text: string, keep: readonly string[] | undefined): AttachmentRef[] | undefined {
  const kept = keep === undefined ? target.attachments : target.attachments?.filter((ref) => keep.includes(ref.id));
  if (text.trim() === '' && !kept?.length) throw new CallerError('invalid_version', 'A message needs words or a file.');
  return kept;
}

/**
 * The conversation with a new version that replaces `target` made current,
 * as the edit's transaction writes it (the caller marks it running there).
 * `history`: every stored message as read before, enough to place the
 * fork, since whatever was appended since comes after `target`.
 */
export function editedConversation(conversation: Conversation, history: readonly Message[], target: UserMessage, branch: { id: string; createdAt: number }): Conversation {
  versionsMayChange(conversation, { withPending: true });
  const { versions } = conversation;
  if (!onPath(versions)(target)) throw new CallerError('invalid_version', 'That message is not in the version shown: switch to it first.');
  return { ...conversation, versions: fork(versions, currentPath(history, versions), target, branch) };
}
