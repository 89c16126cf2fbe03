import { beforeEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../records/index.ts';
import type { StepRecords, StoragePort } from '../storage-port.ts';
import { makeConversation, makeLedgerEntry, makePausePoint, userDraft } from './make-records.ts';
import { resolve } from './storage-contract-helpers.ts';

/**
 * The StoragePort contract for `loadStep`: what one step of the loop reads,
 * in one transaction. Registered by describeStoragePort, whose hooks give
 * each test a fresh storage.
 */
export function describeLoadStepContract(storageOf: () => StoragePort): void {
  describe('loadStep', () => {
    let storage: StoragePort;
    beforeEach(async () => {
      storage = storageOf();
      await storage.putConversation(makeConversation({ id: 'c1', nextSeq: 0 }));
      await storage.putConversation(makeConversation({ id: 'c2', nextSeq: 0 }));
    });

    it('reads the conversation, its pending pause points and its messages from a seq on', async () => {
      await storage.appendMessages('c1', [userDraft('c1', 'm0'), userDraft('c1', 'm1'), userDraft('c1', 'm2')]);
      await storage.appendMessages('c2', [userDraft('c2', 'other')]);
      await storage.createPausePoint(makePausePoint({ id: 'late', createdAt: 3_000 }));
      await storage.createPausePoint(makePausePoint({ id: 'early', createdAt: 2_000 }));
      await storage.createPausePoint(makePausePoint({ id: 'decided', createdAt: 1_000, status: 'resolved', resolution: 'approve', resolvedAt: 1_100 }));
      await storage.createPausePoint(makePausePoint({ id: 'elsewhere', conversationId: 'c2' }));

      const step = await storage.loadStep('c1', 1);
      expect(step.conversation).toEqual(await storage.getConversation('c1'));
      expect(step.pending.map((p) => p.id)).toEqual(['early', 'late']);
      expect(step.tail.map((m) => [m.id, m.seq])).toEqual([
        ['m1', 1],
        ['m2', 2],
      ]);
      expect((await storage.loadStep('c1', 0)).tail.map((m) => m.id)).toEqual(['m0', 'm1', 'm2']);
      expect((await storage.loadStep('c1', 3)).tail).toEqual([]);
    });

    it('reads an unknown conversation as nothing', async () => {
      expect(await storage.loadStep('nobody', 0)).toEqual({ conversation: undefined, pending: [], tail: [] });
    });

    it('with callsOf, reads the records of the calls it names from the tail it read, as loadCalls does', async () => {
      await storage.appendMessages('c1', [userDraft('c1', 'm0'), userDraft('c1', 'm1'), userDraft('c1', 'm2')]);
      await storage.createPausePoint(makePausePoint({ id: 'p0', toolCallId: 'call_1', createdAt: 100 }));
      await storage.settlePausePoint('p0', (p) => resolve(p, []));
      await storage.createPausePoint(makePausePoint({ id: 'p1', toolCallId: 'call_1', origin: 'unknown_outcome', createdAt: 200 }));
      await storage.createPausePoint(makePausePoint({ id: 'p2', toolCallId: 'call_2', createdAt: 300 }));
      await storage.createPausePoint(makePausePoint({ id: 'other', conversationId: 'c2', toolCallId: 'call_1' }));
      await storage.putLedgerEntry(makeLedgerEntry());
      await storage.putLedgerEntry(makeLedgerEntry({ id: 'c2:call_1', conversationId: 'c2' }));

      const seen: string[][] = [];
      const step = await storage.loadStep('c1', 1, (tail) => {
        seen.push(tail.map((m) => m.id));
        return ['call_1', 'call_9'];
      });
      expect(seen).toEqual([['m1', 'm2']]);
      expect(step.calls).toEqual(await storage.loadCalls('c1', ['call_1', 'call_9']));
      expect(step.calls?.pausePoints.map((p) => [p.id, p.status])).toEqual([
        ['p0', 'resolved'],
        ['p1', 'pending'],
      ]);
      expect(step.calls?.ledger).toEqual([makeLedgerEntry()]);
      expect(step.pending.map((p) => p.id)).toEqual(['p1', 'p2']);
      expect((await storage.loadStep('c1', 0, () => [])).calls).toEqual({ pausePoints: [], ledger: [] });
      expect((await storage.loadStep('c1', 0)).calls).toBeUndefined();
    });

    it('rejects with the error a callsOf throws', async () => {
      const boom = new Error('boom');
      await expect(
        storage.loadStep('c1', 0, () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
    });

    it('reads the calls in the same snapshot: never half of a settlement', async () => {
      await storage.createPausePoint(makePausePoint({ id: 'p1', toolCallId: 'call_1' }));
      const steps = [storage.loadStep('c1', 0, () => ['call_1'])];
      const settling = storage.settlePausePoint('p1', (p) => resolve(p, [userDraft('c1', 'decision')]));
      steps.push(storage.loadStep('c1', 0, () => ['call_1']));
      await settling;
      steps.push(storage.loadStep('c1', 0, () => ['call_1']));
      for (const step of await Promise.all(steps)) {
        const decided = step.tail.some((m) => m.id === 'decision');
        expect(step.calls?.pausePoints.map((p) => p.status)).toEqual([decided ? 'resolved' : 'pending']);
      }
    });

    it('is one snapshot: never half of an append with its update', async () => {
      const bump = (c: Conversation) => ({ ...c, turns: c.turns + 1 });
      const appends: Promise<unknown>[] = [];
      const steps: Promise<StepRecords>[] = [];
      for (let i = 0; i < 8; i++) {
        steps.push(storage.loadStep('c1', 0));
        appends.push(storage.appendMessages('c1', [userDraft('c1', `m${i}`)], bump));
      }
      await Promise.all(appends);
      for (const step of await Promise.all(steps)) {
        expect(step.conversation?.turns).toBe(step.tail.length);
        expect(step.conversation?.nextSeq).toBe(step.tail.length);
      }
    });

    it('is one snapshot: never half of a settlement', async () => {
      await storage.createPausePoint(makePausePoint({ id: 'p1' }));
      const steps = [storage.loadStep('c1', 0)];
      const settling = storage.settlePausePoint('p1', (p) => resolve(p, [userDraft('c1', 'decision')]));
      steps.push(storage.loadStep('c1', 0));
      await settling;
      steps.push(storage.loadStep('c1', 0));
      for (const step of await Promise.all(steps)) {
        const decided = step.tail.some((m) => m.id === 'decision');
        expect(step.pending.map((p) => p.id)).toEqual(decided ? [] : ['p1']);
        expect(step.conversation?.nextSeq).toBe(decided ? 1 : 0);
      }
      expect((await storage.loadStep('c1', 0)).tail.map((m) => m.id)).toEqual(['decision']);
    });

    it('returns copies: mutating them does not change storage', async () => {
      await storage.appendMessages('c1', [userDraft('c1', 'm0')]);
      await storage.createPausePoint(makePausePoint());
      const step = await storage.loadStep('c1', 0);
      step.conversation!.title = 'mutated';
      step.pending[0]!.status = 'expired';
      step.tail[0]!.content = 'mutated';
      expect(await storage.loadStep('c1', 0)).toMatchObject({
        conversation: { title: 'A conversation' },
        pending: [{ id: 'p1', status: 'pending' }],
        tail: [{ id: 'm0', content: 'm0' }],
      });
    });
  });
}
