import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeLedgerEntry, makePausePoint, userDraft } from '../engine/testing/make-records.ts';
import { createConversation, deleteConversation, liveConversations, renameConversation } from './conversations-repo.ts';
import type { PausepointDb } from './db.ts';
import { DexieStorage } from './dexie-storage.ts';
import { openTestDb } from './open-test-db.ts';
import { waitForEmission } from './wait-for-emission.ts';

describe('conversations repository', () => {
  let db: PausepointDb;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ db, cleanup } = await openTestDb());
  });
  afterEach(async () => {
    await cleanup();
  });

  it('creates an idle conversation at seq 0', async () => {
    const created = await createConversation(db, { id: 'c1', title: 'Invoices', now: 100 });
    expect(created).toEqual({
      v: 1,
      id: 'c1',
      title: 'Invoices',
      createdAt: 100,
      updatedAt: 100,
      state: { kind: 'idle' },
      turns: 0,
      nextSeq: 0,
    });
    expect(await db.conversations.get('c1')).toEqual(created);
    await expect(createConversation(db, { id: 'c1', title: 'Again', now: 200 })).rejects.toMatchObject({
      name: 'StorageError',
      code: 'conflict',
    });
  });

  it('renames without reordering, and refuses an unknown id', async () => {
    await createConversation(db, { id: 'c1', title: 'Old', now: 100 });
    expect(await renameConversation(db, 'c1', 'New')).toMatchObject({ title: 'New', updatedAt: 100 });
    await expect(renameConversation(db, 'nope', 'x')).rejects.toMatchObject({ name: 'StorageError', code: 'not_found' });
  });

  it('deleteConversation removes everything of that conversation and nothing else', async () => {
    const storage = new DexieStorage(db);
    for (const id of ['c1', 'c2']) {
      await createConversation(db, { id, title: id, now: 100 });
      await storage.appendMessages(id, [userDraft(id, `${id}-m1`), userDraft(id, `${id}-m2`)]);
      await storage.createPausePoint(makePausePoint({ id: `${id}-p1`, conversationId: id }));
      await storage.putLedgerEntry(makeLedgerEntry({ id: `${id}:call_1`, conversationId: id }));
    }

    expect(await deleteConversation(db, 'c1')).toBe(true);

    expect(await db.conversations.toCollection().primaryKeys()).toEqual(['c2']);
    expect(await db.messages.orderBy('id').primaryKeys()).toEqual(['c2-m1', 'c2-m2']);
    expect(await db.pausePoints.toCollection().primaryKeys()).toEqual(['c2-p1']);
    expect(await db.ledger.toCollection().primaryKeys()).toEqual(['c2:call_1']);
    expect(await deleteConversation(db, 'c1')).toBe(false);
  });

  it('liveConversations emits newest first and again after a write', async () => {
    await createConversation(db, { id: 'old', title: 'Old', now: 100 });
    await createConversation(db, { id: 'new', title: 'New', now: 200 });
    const live = liveConversations(db);

    const first = await waitForEmission(live, (list) => list.length === 2);
    expect(first.map((c) => c.id)).toEqual(['new', 'old']);

    const storage = new DexieStorage(db);
    const updated = waitForEmission(live, (list) => list[0]?.id === 'old');
    await storage.appendMessages('old', [userDraft('old', 'm1', 'hello', 300)]);
    expect((await updated).map((c) => [c.id, c.updatedAt])).toEqual([
      ['old', 300],
      ['new', 200],
    ]);
  });
});
