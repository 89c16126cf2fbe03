import 'fake-indexeddb/auto';
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
