import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settlement } from '../engine/storage-port.ts';
import type { ApprovalRule, PausePoint } from '../engine/records/index.ts';
import { makeConversation, makeLedgerEntry, makePausePoint, userDraft } from '../engine/testing/make-records.ts';
import { describeStoragePort } from '../engine/testing/storage-port-contract.ts';
import type { PausepointDb } from './db.ts';
import { DexieStorage } from './dexie-storage.ts';
import { openTestDb, useTestDb } from './testing/open-test-db.ts';
import { readSettings, saveSettings, SettingsRead, settingsAlongside } from './settings-repo.ts';
import { StorageError } from './storage-error.ts';

describeStoragePort('DexieStorage', async () => {
  const { db, cleanup } = await openTestDb();
  return { storage: new DexieStorage(db), cleanup };
});

describe('DexieStorage when the browser is out of space', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));
  beforeEach(async () => {
    await db.conversations.put(makeConversation({ id: 'c1', nextSeq: 0 }));
  });

  /** Makes the n-th message write of the transaction fail the way a full disk does. */
  function failMessageWrite(n: number): void {
    let writes = 0;
    db.messages.hook('creating', () => {
      if (++writes === n) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
  }

  it.each([1, 2])('appendMessages failing on message write %i leaves nothing half-written', async (n) => {
    failMessageWrite(n);
    const storage = new DexieStorage(db);
    const error = await storage.appendMessages('c1', [userDraft('c1', 'm1'), userDraft('c1', 'm2')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'quota_exceeded', message: expect.stringMatching(/out of storage space/) });
    expect(await db.messages.count()).toBe(0);
    expect(await db.conversations.get('c1')).toMatchObject({ nextSeq: 0 });
  });
});

describe('DexieStorage.deleteConversation', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('removes everything of that conversation and nothing else', async () => {
    const storage = new DexieStorage(db);
    for (const id of ['c1', 'c2']) {
      await storage.putConversation(makeConversation({ id, title: id, nextSeq: 0 }));
      await storage.appendMessages(id, [userDraft(id, `${id}-m1`), userDraft(id, `${id}-m2`)]);
      await storage.createPausePoint(makePausePoint({ id: `${id}-p1`, conversationId: id }));
      await storage.putLedgerEntry(makeLedgerEntry({ id: `${id}:call_1`, conversationId: id }));
    }

    expect(await storage.deleteConversation('c1')).toBe(true);

    expect(await db.conversations.toCollection().primaryKeys()).toEqual(['c2']);
    expect(await db.messages.orderBy('id').primaryKeys()).toEqual(['c2-m1', 'c2-m2']);
    expect(await db.pausePoints.toCollection().primaryKeys()).toEqual(['c2-p1']);
    expect(await db.ledger.toCollection().primaryKeys()).toEqual(['c2:call_1']);
    expect(await storage.deleteConversation('c1')).toBe(false);
  });
});

describe('DexieStorage reading the settings along with each step', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('hands loadStep’s caller the stored settings, key included, read in the step’s transaction, as readSettings reads them', async () => {
    await db.conversations.put(makeConversation({ id: 'c1', nextSeq: 0 }));
    const storage = new DexieStorage(db, settingsAlongside);
    expect((await storage.loadStep('c1', 0)).alongside).toEqual(new SettingsRead(undefined));

    await saveSettings(db, { provider: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: 'key-1', model: 'llama3' });
    const step = await storage.loadStep('c1', 0);
    expect(step.alongside).toBeInstanceOf(SettingsRead);
    expect((step.alongside as SettingsRead).settings).toEqual(await readSettings(db));
    expect((step.alongside as SettingsRead).settings).toMatchObject({ apiKey: 'key-1', model: 'llama3' });
    // Without one, the step is the three reads alone.
    expect(await new DexieStorage(db).loadStep('c1', 0)).not.toHaveProperty('alongside');
  });

  it('reads them in appendAndLoadStep’s transaction too, the step a Send starts its run with', async () => {
    await db.conversations.put(makeConversation({ id: 'c1', nextSeq: 0 }));
    await saveSettings(db, { provider: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: 'key-1', model: 'llama3' });
    const storage = new DexieStorage(db, settingsAlongside);
    const step = await storage.appendAndLoadStep('c1', [userDraft('c1', 'm0')], undefined, undefined, 0);
    expect(step.tail.map((m) => m.id)).toEqual(['m0']);
    expect(step.alongside).toBeInstanceOf(SettingsRead);
    expect((step.alongside as SettingsRead).settings).toEqual(await readSettings(db));
    expect(await new DexieStorage(db).appendAndLoadStep('c1', [userDraft('c1', 'm1')], undefined, undefined, 0)).not.toHaveProperty('alongside');
  });
});

describe('DexieStorage: a settlement that carries a rule (a card’s Always allow)', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));
  const by = { tabId: 'tab-A', deviceId: 'device-1', label: 'Chromium' };
  const rule: ApprovalRule = {
    v: 1, id: 'rule-card', effect: 'allow', tool: 'transfer', match: [], scope: { kind: 'everywhere' }, source: 'card',
    createdAt: 2_000, lastUsedAt: null, expiresAt: null, definitionHash: 'h'.repeat(64), enabled: true,
  };
  beforeEach(async () => {
    await db.conversations.put(makeConversation({ id: 'c1', nextSeq: 0 }));
    await db.pausePoints.put(makePausePoint({ id: 'p1', conversationId: 'c1', status: 'pending' }));
  });
  const approve = (pending: PausePoint): Settlement => ({
    commit: true,
    pausePoint: { ...pending, status: 'resolved', resolution: 'approve', resolvedAt: 2_000, decidedBy: by },
    messages: [],
    rule,
  });

  it('stores the rule and its audit event with the decision', async () => {
    const storage = new DexieStorage(db);
    expect(await storage.settlePausePoint('p1', approve)).toMatchObject({ ok: true });
    expect(await db.approvalRules.toArray()).toEqual([rule]);
    expect(await db.auditEvents.toArray()).toEqual([expect.objectContaining({ kind: 'rule_created', at: 2_000, rule, by })]);
  });

  it('stores no rule when the compare-and-set refuses the decision (another tab decided first)', async () => {
    const storage = new DexieStorage(db);
    await storage.settlePausePoint('p1', (pending) => ({ commit: true, pausePoint: { ...pending, status: 'resolved', resolution: 'decline', resolvedAt: 1_500 }, messages: [] }));
    expect(await storage.settlePausePoint('p1', approve)).toMatchObject({ ok: false, reason: 'already_decided' });
    expect(await db.approvalRules.count()).toBe(0);
    expect(await db.auditEvents.count()).toBe(0);
  });

  it('stores neither when the rule is invalid: one transaction', async () => {
    const storage = new DexieStorage(db);
    const bad = (pending: PausePoint): Settlement => ({ ...(approve(pending) as Extract<Settlement, { commit: true }>), rule: { ...rule, effect: 'maybe' } as never });
    await expect(storage.settlePausePoint('p1', bad)).rejects.toThrow(/not saved/);
    expect(await db.pausePoints.get('p1')).toMatchObject({ status: 'pending' });
    expect(await db.approvalRules.count()).toBe(0);
  });
});

describe('DexieStorage: the requests a decision makes', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  /** Counts the IndexedDB requests made through the object stores' and indexes' own methods, by `store.method`. */
  function countRequests(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const prototype of [IDBObjectStore.prototype, IDBIndex.prototype] as unknown as Record<string, (...args: unknown[]) => unknown>[]) {
      for (const method of ['get', 'getAll', 'put', 'add'].filter((name) => typeof prototype[name] === 'function')) {
        const original = prototype[method]!;
        vi.spyOn(prototype, method).mockImplementation(function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
          const store = 'objectStore' in this ? `${this.objectStore.name}[${this.name}]` : this.name;
          counts.set(`${store}.${method}`, (counts.get(`${store}.${method}`) ?? 0) + 1);
          return original.apply(this, args);
        });
      }
    }
    return counts;
  }
  afterEach(() => vi.restoreAllMocks());

  it('finds a pending pause point among the pending ones it reads anyway, and puts no conversation the settlement left as it was', async () => {
    const storage = new DexieStorage(db);
    await storage.putConversation(makeConversation({ id: 'c1' }));
    await storage.createPausePoint(makePausePoint({ id: 'p1' }));
    const counts = countRequests();
    const settled = await storage.settlePausePoint('p1', (p) => ({ ...resolveOnly(p), update: (c) => c }));
    expect(settled).toMatchObject({ ok: true, pausePoint: { status: 'resolved' } });
    expect(Object.fromEntries(counts)).toEqual({ 'pausePoints[status].getAll': 1, 'conversations.get': 1, 'pausePoints.put': 1 });
    // One that is no longer pending is read on its own, to say so.
    expect(await storage.settlePausePoint('p1', resolveOnly)).toMatchObject({ ok: false, reason: 'already_decided' });
    expect(counts.get('pausePoints.get')).toBe(1);
  });
});

function resolveOnly(p: PausePoint): Settlement & { commit: true } {
  return { commit: true, pausePoint: { ...p, status: 'resolved', resolution: 'approve', resolvedAt: 5_000 }, messages: [] };
}
