import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Settlement } from '../engine/ports.ts';
import type { ApprovalRule, PausePoint } from '../engine/records/index.ts';
import { makeConversation, makePausePoint, userDraft } from '../engine/testing/make-records.ts';
import { describeStoragePort } from '../engine/testing/storage-port-contract.ts';
import type { PausepointDb } from './db.ts';
import { DexieStorage } from './dexie-storage.ts';
import { openTestDb, useTestDb } from './testing/open-test-db.ts';
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
