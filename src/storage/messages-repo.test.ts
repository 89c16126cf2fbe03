import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeConversation, userDraft } from '../engine/testing/make-records.ts';
import type { PausepointDb } from './db.ts';
import { DexieStorage } from './dexie-storage.ts';
import { liveMessages } from './messages-repo.ts';
import { openTestDb } from './open-test-db.ts';
import { waitForEmission } from './wait-for-emission.ts';

describe('messages repository', () => {
  let db: PausepointDb;
  let storage: DexieStorage;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ db, cleanup } = await openTestDb());
    storage = new DexieStorage(db);
    await storage.putConversation(makeConversation({ id: 'c1' }));
    await storage.putConversation(makeConversation({ id: 'c2' }));
  });
  afterEach(async () => {
    await cleanup();
  });

  it('liveMessages follows appends and in-place updates, in seq order', async () => {
    const live = liveMessages(db, 'c1');
    expect(await waitForEmission(live, () => true)).toEqual([]);

    const appended = waitForEmission(live, (list) => list.length === 2);
    const [first] = await storage.appendMessages('c1', [userDraft('c1', 'b'), userDraft('c1', 'a')]);
    await storage.appendMessages('c2', [userDraft('c2', 'elsewhere')]);
    expect((await appended).map((m) => [m.id, m.seq])).toEqual([
      ['b', 0],
      ['a', 1],
    ]);

    const streamed = waitForEmission(live, (list) => list[0]?.content === 'streamed');
    await storage.putMessage({ ...first!, content: 'streamed' });
    expect((await streamed).map((m) => m.id)).toEqual(['b', 'a']);
  });
});
