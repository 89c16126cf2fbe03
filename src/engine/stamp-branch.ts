import type { Conversation, Message } from './records/index.ts';

/**
 * A message as storage writes it: on the version branch its draft names, or
 * else on the conversation's current one, read in the transaction that hands
 * out its `seq` (so a message is never written on a version that stopped
 * being current before it). The root's messages carry no `branch`, so a
 * conversation without versions is stored exactly as before. Both storages
 * number drafts through this.
 */
export function stampBranch(message: Message, conversation: Conversation): Message {
  const branch = message.branch ?? conversation.versions?.current;
  return branch && branch !== message.branch ? { ...message, branch } : message;
}
