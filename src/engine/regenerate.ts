import { CallerError } from './errors.ts';
import type { Conversation, Message } from './records/index.ts';
import { currentPath } from './versions/current-path.ts';
import { fork } from './versions/fork.ts';
import { lastAnswer } from './versions/last-answer.ts';
import { versionsMayChange } from './versions/version-checks.ts';

/**
 * Regenerate: the conversation with a new version forked at the first
 * message of the shown version's last answer, made current. Nothing is
 * appended: the run that follows sees the person's message last and asks
 * the model again, from the same history; its answer is the new version's
 * first message. `history`: every stored message, read under the
 * conversation's lock (nothing can be appended while no card is pending).
 */
export function regeneratedConversation(conversation: Conversation, history: readonly Message[], branch: { id: string; createdAt: number }): Conversation {
  versionsMayChange(conversation, { withPending: false });
  const path = currentPath(history, conversation.versions);
  const first = lastAnswer(path)[0];
  if (!first) throw new CallerError('invalid_version', 'There is no answer to regenerate.');
  return { ...conversation, versions: fork(conversation.versions, path, first, branch) };
}
