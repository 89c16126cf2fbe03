// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import type { Message } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';
import type { MessageTail } from '../../storage/messages-repo.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { ConversationTail, TAIL_PAGE } from './conversation-tail.svelte.ts';

let db: PausepointDb;

useTestDb((fresh) => (db = fresh));
beforeEach(async () => {
  const messages: Message[] = Array.from({ length: 450 }, (_, seq) => ({
    v: 1,
    id: `m${seq}`,
    conversationId: 'c1',
    seq,
    createdAt: seq,
    role: 'user',
    content: `message ${seq}`,
  }));
  await db.messages.bulkAdd(messages);
});

function follow(conversationId: string | null, seed?: MessageTail) {
  let tail!: ConversationTail;
  const dispose = $effect.root(() => {
    tail = new ConversationTail(db, () => conversationId, seed);
  });
  return { tail, dispose };
}

describe('ConversationTail', () => {
  test('a seed shows at once, ready, until the live read replaces it', async () => {
    const seeded: Message = { v: 1, id: 'seeded', conversationId: 'c1', seq: 449, createdAt: 449, role: 'user', content: 'read ahead' };
    const { tail, dispose } = follow('c1', { messages: [seeded], hasEarlier: true });
    expect(tail.ready).toBe(true);
    expect(tail.messages.map((m) => m.id)).toEqual(['seeded']);
    await vi.waitFor(() => expect(tail.messages).toHaveLength(TAIL_PAGE));
    expect(tail.messages.at(-1)?.content).toBe('message 449');
    dispose();
  });

  test('reads the newest page, then a page more each time, keeping the rows on screen meanwhile', async () => {
    const { tail, dispose } = follow('c1');
    await vi.waitFor(() => expect(tail.messages).toHaveLength(TAIL_PAGE));
    expect(tail.messages[0]?.seq).toBe(450 - TAIL_PAGE);
    expect(tail.hasEarlier).toBe(true);

    tail.showEarlier();
    tail.showEarlier(); // ignored: the first page is still being read
    expect(tail.ready).toBe(false);
    expect(tail.messages).toHaveLength(TAIL_PAGE);
    await vi.waitFor(() => expect(tail.ready).toBe(true));
    expect(tail.messages).toHaveLength(2 * TAIL_PAGE);

    tail.showEarlier();
    await vi.waitFor(() => expect(tail.messages).toHaveLength(450));
    expect(tail.hasEarlier).toBe(false);
    expect(tail.messages[0]?.id).toBe('m0');
    dispose();
  });

  test('a new chat has no messages and reads nothing', () => {
    const { tail, dispose } = follow(null);
    expect(tail.messages).toEqual([]);
    expect(tail.hasEarlier).toBe(false);
    dispose();
  });
});
