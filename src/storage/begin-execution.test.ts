import 'fake-indexeddb/auto';
import { liveQuery } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeConversation, makeLedgerEntry, userDraft } from '../engine/testing/make-records.ts';
import type { PausepointDb } from './db.ts';
import { DexieStorage } from './dexie-storage.ts';
import { useTestDb } from './testing/open-test-db.ts';
import { waitForEmission } from './wait-for-emission.ts';

describe('beginExecution over IndexedDB', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));
  afterEach(() => vi.restoreAllMocks());

  /** The durability each write transaction over `stores` was opened with, in order. */
  function durabilities(): (stores: string) => string[] {
    const spy = vi.spyOn(IDBDatabase.prototype, 'transaction');
    return (stores) =>
      spy.mock.calls
        .filter(([names, mode]) => mode === 'readwrite' && [names].flat().join('+') === stores)
        .map(([, , options]) => options?.durability ?? 'default');
  }

  it('is the one write made strict, durable on disk before the tool runs; the others are relaxed', async () => {
    // Dexie binds the method when it opens: a fresh connection sees the spy.
    db.close();
    const opened = durabilities();
    await db.open();
    const storage = new DexieStorage(db);
    await storage.putConversation(makeConversation({ id: 'c1', nextSeq: 0 }));
    await storage.appendMessages('c1', [userDraft('c1', 'm0')]);
    expect(await storage.beginExecution(makeLedgerEntry())).toBe(true);
    expect(await storage.beginExecution(makeLedgerEntry({ status: 'started', attempts: 2 }), ['started'])).toBe(true);
    await storage.putLedgerEntry(makeLedgerEntry({ status: 'succeeded' }));

    expect(opened('ledger')).toEqual(['strict', 'strict', 'relaxed']);
    expect(opened('conversations+messages')).toEqual(['relaxed']);
  });

  it('is heard by live queries, as Dexie’s own writes are', async () => {
    const storage = new DexieStorage(db);
    const live = liveQuery(() => db.ledger.where('conversationId').equals('c1').toArray());
    expect(await waitForEmission(live, () => true)).toEqual([]);
    const begun = waitForEmission(live, (entries) => entries.length === 1);
    expect(await storage.beginExecution(makeLedgerEntry())).toBe(true);
    expect(await begun).toEqual([makeLedgerEntry()]);
    const reopened = waitForEmission(live, (entries) => entries[0]?.attempts === 2);
    expect(await storage.beginExecution(makeLedgerEntry({ attempts: 2 }), ['started'])).toBe(true);
    expect(await reopened).toEqual([makeLedgerEntry({ attempts: 2 })]);
  });
});
