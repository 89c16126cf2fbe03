import type { Conversation } from './conversation.ts';

/**
 * A conversation before its first message: idle, no turns, numbering from 0.
 * `Engine.createConversation` makes every conversation with it; storage tests
 * that need a stored conversation make theirs the same way.
 */
export function newConversation({ id, title, now }: { id: string; title: string; now: number }): Conversation {
  return { v: 1, id, title, createdAt: now, updatedAt: now, state: { kind: 'idle' }, turns: 0, nextSeq: 0 };
}
