import type { MessageDraft } from '../engine/storage-port.ts';
import type { Conversation, Message } from '../engine/records/index.ts';
import { stampBranch } from '../engine/stamp-branch.ts';
import { StorageError } from './storage-error.ts';

/**
 * Gives drafts their places in the conversation: consecutive `seq` from
 * `nextSeq`, which moves past them. `updatedAt` follows the newest draft rather
 * than a clock of storage's own, so it stays on the engine's clock (and tests
 * with a fake clock stay deterministic); it never moves backwards.
 *
 * Each is stamped with the version branch it is written on (stamp-branch.ts).
 *
 * Must be called inside the transaction that read `conversation` and that writes
 * both results. MemoryStorage repeats this rule; the shared contract tests hold
 * the two to it.
 */
export function numberDrafts(
  conversation: Conversation,
  drafts: readonly MessageDraft[],
): { conversation: Conversation; messages: Message[] } {
  let seq = conversation.nextSeq;
  let updatedAt = conversation.updatedAt;
  const messages = drafts.map((draft): Message => {
    if (draft.conversationId !== conversation.id) {
      throw new StorageError(
        'invalid',
        `Message ${draft.id} belongs to conversation ${draft.conversationId}, not ${conversation.id}.`,
      );
    }
    updatedAt = Math.max(updatedAt, draft.createdAt);
    return stampBranch({ ...draft, seq: seq++ }, conversation);
  });
  return { conversation: { ...conversation, nextSeq: seq, updatedAt }, messages };
}
