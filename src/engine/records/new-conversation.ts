import type { Conversation } from './conversation.ts';

/**
 * A conversation before its first message: idle, no turns, numbering from 0.
 * In a file of its own, importing types only, so the page can create
 * conversations without loading the record schemas (and zod) at start-up;
 * tests/unit/start-up-imports.test.ts holds it to that.
 */
export function newConversation({ id, title, now }: { id: string; title: string; now: number }): Conversation {
  return { v: 1, id, title, createdAt: now, updatedAt: now, state: { kind: 'idle' }, turns: 0, nextSeq: 0 };
}
