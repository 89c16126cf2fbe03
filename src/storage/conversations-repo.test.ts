import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { newConversation } from '../engine/records/index.ts';
import { userDraft } from '../engine/testing/make-records.ts';
import { conversationsInStates, liveConversation, liveConversationPage } from './conversations-repo.ts';
import type { PausepointDb } from './db.ts';
import { DexieStorage } from './dexie-storage.ts';
import { useTestDb } from './testing/open-test-db.ts';
import { waitForEmission } from './wait-for-emission.ts';

/** Stores a new conversation the way the app does (`Engine.createConversation`). */
async function createConversation(db: PausepointDb, fields: { id: string; title: string; now: number }) {
  const conversation = newConversation(fields);
  await new DexieStorage(db).putConversation(conversation);
  return conversation;
}

describe('conversations repository', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('stores a new conversation idle at seq 0', async () => {
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
  });

  it('liveConversationPage emits newest first and again after a write from any tab or worker', async () => {
    await createConversation(db, { id: 'old', title: 'Old', now: 100 });
    await createConversation(db, { id: 'new', title: 'New', now: 200 });
    const live = liveConversationPage(db, { limit: 10 });

    const first = await waitForEmission(live, (page) => page.conversations.length === 2);
    expect(first.conversations.map((c) => c.id)).toEqual(['new', 'old']);

    const storage = new DexieStorage(db);
    const updated = waitForEmission(live, (page) => page.conversations[0]?.id === 'old');
    await storage.appendMessages('old', [userDraft('old', 'm1', 'hello', 300)]);
    expect((await updated).conversations.map((c) => [c.id, c.updatedAt])).toEqual([
      ['old', 300],
      ['new', 200],
    ]);
  });

  it('liveConversationPage reads the newest page and counts them all', async () => {
    for (let i = 0; i < 12; i++) await createConversation(db, { id: `c${i}`, title: i % 3 === 0 ? `Trip ${i}` : `Invoices ${i}`, now: i });

    const page = await waitForEmission(liveConversationPage(db, { limit: 5 }), () => true);
    expect(page.conversations.map((c) => c.id)).toEqual(['c11', 'c10', 'c9', 'c8', 'c7']);
    expect(page.total).toBe(12);

    const live = liveConversationPage(db, { limit: 2 });
    const moved = waitForEmission(live, (p) => p.conversations[0]?.id === 'c0' && p.total === 13);
    await createConversation(db, { id: 'c12', title: 'New', now: 1 });
    await new DexieStorage(db).appendMessages('c0', [userDraft('c0', 'm1', 'hello', 300)]);
    expect((await moved).conversations.map((c) => c.id)).toEqual(['c0', 'c11']);
  });

  it('liveConversation follows one record, and emits undefined once it is deleted', async () => {
    await createConversation(db, { id: 'c1', title: 'Old', now: 100 });
    const live = liveConversation(db, 'c1');
    expect((await waitForEmission(live, (c) => c !== undefined))?.title).toBe('Old');
    const renamed = waitForEmission(live, (c) => c?.title === 'New');
    const storage = new DexieStorage(db);
    await storage.updateConversation('c1', (c) => ({ ...c, title: 'New' }));
    await renamed;
    const gone = waitForEmission(live, (c) => c === undefined);
    await storage.deleteConversation('c1');
    expect(await gone).toBeUndefined();
  });

  it('conversationsInStates finds conversations by state kind through the index', async () => {
    const storage = new DexieStorage(db);
    await createConversation(db, { id: 'idle', title: 'Idle', now: 1 });
    await storage.putConversation({ ...(await createConversation(db, { id: 'run', title: 'Run', now: 2 })), state: { kind: 'running', owner: 'tab-1', since: 2 } });
    await storage.putConversation({ ...(await createConversation(db, { id: 'net', title: 'Net', now: 3 })), state: { kind: 'waiting_for_network', owner: 'tab-2', since: 3 } });
    const found = await conversationsInStates(db, ['running', 'retrying', 'waiting_for_network']);
    expect(found.map((c) => c.id).sort()).toEqual(['net', 'run']);
  });
});
