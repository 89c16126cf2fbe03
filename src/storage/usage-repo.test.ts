import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import type { CallUsage } from '../engine/records/index.ts';
import { makeConversation } from '../engine/testing/make-records.ts';
import type { PausepointDb } from './db.ts';
import { useTestDb } from './testing/open-test-db.ts';
import { recordSampledUsage, usageSince } from './usage-repo.ts';

const used = (prompt: number, completion: number): CallUsage => ({ model: 'm', prompt, completion, cached: 0, reasoning: 0 });

describe('sampling usage', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('point 10: a sampling call’s usage is stored on its conversation — in its totals, listed with its time — and counted in the day’s usage', async () => {
    await db.conversations.put(makeConversation({ id: 'c1', updatedAt: 1_000, usage: [{ ...used(100, 10), calls: 1 }] }));
    await recordSampledUsage(db, 'c1', used(40, 5), 5_000);

    const stored = await db.conversations.get('c1');
    expect(stored?.usage).toEqual([{ ...used(140, 15), calls: 2 }]);
    expect(stored?.sampled).toEqual([{ at: 5_000, usage: used(40, 5) }]);
    expect(stored?.updatedAt).toBe(5_000);
    expect(await usageSince(db, 4_000)).toEqual([{ usage: used(40, 5), at: 5_000, conversationId: 'c1' }]);
    expect(await usageSince(db, 6_000)).toEqual([]);

    // A conversation deleted meanwhile records nothing.
    await recordSampledUsage(db, 'gone', used(1, 1), 6_000);
    expect(await db.conversations.count()).toBe(1);
  });
});

describe('usage since a time', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('counts the answers written since then, wherever they are, and reads none of the messages without usage', async () => {
    await db.conversations.bulkPut([makeConversation({ id: 'old', updatedAt: 9_000 }), makeConversation({ id: 'new', updatedAt: 9_000 })]);
    const answer = (id: string, conversationId: string, createdAt: number, usage?: CallUsage) => ({
      v: 1 as const,
      id,
      conversationId,
      seq: createdAt,
      createdAt,
      role: 'assistant' as const,
      content: 'a',
      toolCalls: [],
      turnIndex: 0,
      status: 'complete' as const,
      ...(usage ? { usage } : {}),
    });
    await db.messages.bulkPut([
      answer('a1', 'old', 1_000, used(1, 1)),
      answer('a2', 'old', 5_000, used(2, 2)),
      answer('a3', 'new', 6_000, used(3, 3)),
      answer('a4', 'new', 7_000),
      { v: 1, id: 'u1', conversationId: 'new', seq: 1, createdAt: 8_000, role: 'user', content: 'q' },
    ]);
    const since = await usageSince(db, 5_000);
    expect(since.sort((a, b) => a.at - b.at)).toEqual([
      { usage: used(2, 2), at: 5_000, conversationId: 'old' },
      { usage: used(3, 3), at: 6_000, conversationId: 'new' },
    ]);
    // The index holds the answers with usage only: a history without any costs nothing to read.
    expect(await db.messages.where('[createdAt+usage.model]').aboveOrEqual([0, Dexie.minKey]).primaryKeys()).toEqual(['a1', 'a2', 'a3']);
  });
});
