import { beforeEach, describe, expect, it } from 'vitest';
import type { Conversation, PausePoint } from '../records/index.ts';
import type { Settlement, StoragePort } from '../storage-port.ts';
import { makeConversation, makeLedgerEntry, makePausePoint, userDraft } from './make-records.ts';
import { resolve, storageError } from './storage-contract-helpers.ts';

/** A decision as the engine's settlement makes it: its message, and the conversation running once nothing is pending. */
const decide = (p: PausePoint): Settlement => ({
  commit: true,
  pausePoint: { ...p, status: 'resolved', resolution: 'approve', resolvedAt: 5_000 },
  messages: [userDraft(p.conversationId, `m-${p.id}`, 'Approval approval: approve', 4_000)],
  update: (c: Conversation, stillPending: number) => ({
    ...c,
    state: stillPending > 0 ? { kind: 'paused', pending: stillPending } : { kind: 'running', owner: 'tab-A', since: 4_000 },
  }),
});

/**
 * The StoragePort contract for `settleAndLoadStep`: a decision and the step
 * after it in one transaction. Registered by describeStoragePort, whose hooks
 * give each test a fresh storage.
 */
export function describeSettleAndLoadContract(storageOf: () => StoragePort): void {
  describe('settleAndLoadStep', () => {
    let storage: StoragePort;
    beforeEach(async () => {
      storage = storageOf();
      await storage.putConversation(makeConversation({ id: 'c1', nextSeq: 0, state: { kind: 'paused', pending: 2 } }));
      await storage.putConversation(makeConversation({ id: 'c2', nextSeq: 0 }));
      await storage.appendMessages('c1', [userDraft('c1', 'm0'), userDraft('c1', 'm1')]);
      await storage.createPausePoint(makePausePoint({ id: 'p1', createdAt: 200 }));
      await storage.createPausePoint(makePausePoint({ id: 'p0', createdAt: 100, toolCallId: 'call_0' }));
      await storage.createPausePoint(makePausePoint({ id: 'other', conversationId: 'c2' }));
    });

    it('settles as settlePausePoint does and returns what loadStep reads right after it', async () => {
      const { settled, step } = await storage.settleAndLoadStep('p1', decide, 'c1', 1);
      expect(settled).toMatchObject({ ok: true, pausePoint: { id: 'p1', status: 'resolved' }, messages: [{ id: 'm-p1', seq: 2 }] });
      expect(step.tail.map((m) => [m.id, m.seq])).toEqual([
        ['m1', 1],
        ['m-p1', 2],
      ]);
      expect(step.pending.map((p) => p.id)).toEqual(['p0']);
      expect(step.conversation).toMatchObject({ state: { kind: 'paused', pending: 1 }, nextSeq: 3 });
      expect(step).toEqual(await storage.loadStep('c1', 1));
      expect(await storage.getPausePoint('other')).toMatchObject({ status: 'pending' });
    });

    it('the last decision leaves nothing pending in the step it reads, and the conversation as the settlement wrote it', async () => {
      await storage.settlePausePoint('p0', (p) => resolve(p, []));
      const { settled, step } = await storage.settleAndLoadStep('p1', decide, 'c1', 0);
      expect(settled.ok).toBe(true);
      expect(step.pending).toEqual([]);
      expect(step.conversation?.state).toEqual({ kind: 'running', owner: 'tab-A', since: 4_000 });
      expect(step).toEqual(await storage.loadStep('c1', 0));
    });

    it('with callsOf, reads the records of the calls it names from the tail it read after the decision', async () => {
      await storage.putLedgerEntry(makeLedgerEntry());
      const seen: string[][] = [];
      const { step } = await storage.settleAndLoadStep('p1', decide, 'c1', 0, (tail) => {
        seen.push(tail.map((m) => m.id));
        return ['call_1'];
      });
      expect(seen).toEqual([['m0', 'm1', 'm-p1']]);
      expect(step.calls).toEqual(await storage.loadCalls('c1', ['call_1']));
      expect(step.calls?.pausePoints.map((p) => [p.id, p.status])).toEqual([['p1', 'resolved']]);
      expect(step.calls?.ledger).toEqual([makeLedgerEntry()]);
    });

    it('a second decision is refused as already decided, and the step is read as it stands', async () => {
      await storage.settleAndLoadStep('p1', decide, 'c1', 0);
      const { settled, step } = await storage.settleAndLoadStep('p1', decide, 'c1', 0);
      expect(settled).toMatchObject({ ok: false, reason: 'already_decided', pausePoint: { id: 'p1', status: 'resolved' } });
      expect(step).toEqual(await storage.loadStep('c1', 0));
      expect((await storage.listMessages('c1')).map((m) => m.id)).toEqual(['m0', 'm1', 'm-p1']);
    });

    it('a pause point of another conversation is settled, and the named conversation read whole', async () => {
      const { settled, step } = await storage.settleAndLoadStep('other', decide, 'c1', 0);
      expect(settled).toMatchObject({ ok: true, pausePoint: { id: 'other', status: 'resolved' } });
      expect(step).toEqual(await storage.loadStep('c1', 0));
      expect(step.pending.map((p) => p.id)).toEqual(['p0', 'p1']);
    });

    it('not found, refused: nothing written, the step read as it stands', async () => {
      const before = await storage.loadStep('c1', 0);
      expect(await storage.settleAndLoadStep('nope', decide, 'c1', 0)).toEqual({ settled: { ok: false, reason: 'not_found' }, step: before });
      const refused = await storage.settleAndLoadStep('p1', () => ({ commit: false, reason: 'invalid decision' }), 'c1', 0);
      expect(refused).toEqual({ settled: { ok: false, reason: 'refused', message: 'invalid decision' }, step: before });
      expect(await storage.loadStep('c1', 0)).toEqual(before);
    });

    it('a settlement whose messages cannot be written writes nothing and rejects', async () => {
      const before = await storage.loadStep('c1', 0);
      const clash = (p: PausePoint): Settlement => resolve(p, [userDraft('c1', 'm0')]);
      await expect(storage.settleAndLoadStep('p1', clash, 'c1', 0)).rejects.toMatchObject(storageError('conflict'));
      expect(await storage.loadStep('c1', 0)).toEqual(before);
    });

    it('a callsOf that throws rejects it with its error, the decision standing', async () => {
      const boom = new Error('boom');
      await expect(
        storage.settleAndLoadStep('p1', decide, 'c1', 0, () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await storage.getPausePoint('p1')).toMatchObject({ status: 'resolved' });
    });
  });
}
