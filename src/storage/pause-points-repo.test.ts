import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeConversation, makePausePoint } from '../engine/testing/make-records.ts';
import type { PausepointDb } from './db.ts';
import { DexieStorage } from './dexie-storage.ts';
import { useTestDb } from './testing/open-test-db.ts';
import { countPending, livePausePoints, livePendingApprovals, livePendingPausePoints } from './pause-points-repo.ts';
import { waitForEmission } from './wait-for-emission.ts';

describe('pause points repository', () => {
  let db: PausepointDb;
  let storage: DexieStorage;
  useTestDb((fresh) => (db = fresh));
  beforeEach(async () => {
    storage = new DexieStorage(db);
    await storage.putConversation(makeConversation({ id: 'c1' }));
    await storage.putConversation(makeConversation({ id: 'c2' }));
  });

  it('pending pause points are listed across conversations oldest first, counted, and drop out once decided', async () => {
    await storage.createPausePoint(makePausePoint({ id: 'late', conversationId: 'c1', createdAt: 300 }));
    await storage.createPausePoint(makePausePoint({ id: 'early', conversationId: 'c2', createdAt: 100 }));
    await storage.createPausePoint(makePausePoint({ id: 'done', conversationId: 'c1', createdAt: 50, status: 'resolved', resolution: 'approve', resolvedAt: 60 }));
    const pending = livePendingPausePoints(db);

    expect((await waitForEmission(pending, (list) => list.length === 2)).map((p) => p.id)).toEqual(['early', 'late']);
    expect(await countPending(db)).toBe(2);

    const afterDecision = waitForEmission(pending, (list) => list.length === 1);
    await storage.settlePausePoint('early', (p) => ({ commit: true, pausePoint: { ...p, status: 'resolved', resolution: 'decline', resolvedAt: 400 }, messages: [] }));
    expect((await afterDecision).map((p) => p.id)).toEqual(['late']);
    expect(await countPending(db)).toBe(1);

    const ofC1 = await waitForEmission(livePausePoints(db, 'c1'), (list) => list.length === 2);
    expect(ofC1.map((p) => p.id)).toEqual(['done', 'late']);
  });

  it('livePendingApprovals gives the pending cards with the titles of their own conversations only', async () => {
    await storage.putConversation(makeConversation({ id: 'c1', title: 'Invoices' }));
    await storage.putConversation(makeConversation({ id: 'c3', title: 'Not asked for' }));
    await storage.createPausePoint(makePausePoint({ id: 'a', conversationId: 'c1', createdAt: 100 }));
    await storage.createPausePoint(makePausePoint({ id: 'b', conversationId: 'gone', createdAt: 200 }));
    const live = livePendingApprovals(db);

    const first = await waitForEmission(live, (v) => v.pending.length === 2);
    expect(first.pending.map((p) => p.id)).toEqual(['a', 'b']);
    expect([...first.conversationTitles]).toEqual([['c1', 'Invoices']]);

    const renamed = waitForEmission(live, (v) => v.conversationTitles.get('c1') === 'Q3 invoices');
    await storage.putConversation(makeConversation({ id: 'c1', title: 'Q3 invoices' }));
    await renamed;
  });
});

