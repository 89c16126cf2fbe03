import { beforeEach, describe, expect, it } from 'vitest';
import type { PausePoint } from '../records/index.ts';
import type { SetAside, StoragePort } from '../storage-port.ts';
import { makeConversation, makeLedgerEntry, makePausePoint, userDraft } from './make-records.ts';
import { storageError } from './storage-contract-helpers.ts';

/** Sets a card aside as a new message does: expired, abandoned, with a message saying so. */
const abandon = (p: PausePoint): SetAside => ({
  pausePoint: { ...p, status: 'expired', expiredReason: 'abandoned', resolvedAt: 3_000 },
  messages: [userDraft(p.conversationId, `m-${p.id}`, `${p.id} set aside`)],
});

/**
 * The StoragePort contract for `appendAndLoadStep`: an append and the step
 * after it in one transaction. Registered by describeStoragePort, whose hooks
 * give each test a fresh storage.
 */
export function describeAppendAndLoadContract(storageOf: () => StoragePort): void {
  describe('appendAndLoadStep', () => {
    let storage: StoragePort;
    beforeEach(async () => {
      storage = storageOf();
      await storage.putConversation(makeConversation({ id: 'c1', nextSeq: 0 }));
      await storage.putConversation(makeConversation({ id: 'c2', nextSeq: 0 }));
    });

    it('appends as appendMessages does, cards set aside first, and returns what loadStep reads right after it', async () => {
      await storage.appendMessages('c1', [userDraft('c1', 'm0'), userDraft('c1', 'm1')]);
      await storage.createPausePoint(makePausePoint({ id: 'p1', createdAt: 200 }));
      await storage.createPausePoint(makePausePoint({ id: 'p0', createdAt: 100 }));
      await storage.createPausePoint(makePausePoint({ id: 'other', conversationId: 'c2' }));
      const seen: string[] = [];
      const step = await storage.appendAndLoadStep(
        'c1',
        [userDraft('c1', 'm-user', 'moving on')],
        (c) => ({ ...c, title: 'Updated' }),
        (p) => (seen.push(p.id), abandon(p)),
        1,
      );
      expect(seen).toEqual(['p0', 'p1']);
      expect(step.tail.map((m) => [m.id, m.seq])).toEqual([
        ['m1', 1],
        ['m-p0', 2],
        ['m-p1', 3],
        ['m-user', 4],
      ]);
      expect(step.pending).toEqual([]);
      expect(step.conversation).toMatchObject({ title: 'Updated', nextSeq: 5 });
      expect(step).toEqual(await storage.loadStep('c1', 1));
      expect(await storage.getPausePoint('p0')).toMatchObject({ status: 'expired', expiredReason: 'abandoned' });
      expect(await storage.getPausePoint('other')).toMatchObject({ status: 'pending' });
    });

    it('without setAside, reads the pending cards as they stand', async () => {
      await storage.createPausePoint(makePausePoint({ id: 'p1' }));
      const step = await storage.appendAndLoadStep('c1', [userDraft('c1', 'm0')], undefined, undefined, 0);
      expect(step.pending.map((p) => p.id)).toEqual(['p1']);
      expect(step.tail.map((m) => m.id)).toEqual(['m0']);
      expect(step).toEqual(await storage.loadStep('c1', 0));
    });

    it('with callsOf, reads the records of the calls it names from the tail it read after the append', async () => {
      await storage.createPausePoint(makePausePoint({ id: 'p1', toolCallId: 'call_1' }));
      await storage.putLedgerEntry(makeLedgerEntry());
      const seen: string[][] = [];
      const step = await storage.appendAndLoadStep('c1', [userDraft('c1', 'm0')], undefined, abandon, 0, (tail) => {
        seen.push(tail.map((m) => m.id));
        return ['call_1'];
      });
      expect(seen).toEqual([['m-p1', 'm0']]);
      expect(step.calls).toEqual(await storage.loadCalls('c1', ['call_1']));
      expect(step.calls?.pausePoints.map((p) => p.status)).toEqual(['expired']);
      expect(step.calls?.ledger).toEqual([makeLedgerEntry()]);
    });

    it('a callsOf that throws rejects it with its error, the append standing', async () => {
      const boom = new Error('boom');
      await expect(
        storage.appendAndLoadStep('c1', [userDraft('c1', 'm0')], undefined, undefined, 0, () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect((await storage.listMessages('c1')).map((m) => m.id)).toEqual(['m0']);
    });

    it('writes nothing and rejects as appendMessages does: a missing conversation, an update or a set-aside that fails', async () => {
      await storage.createPausePoint(makePausePoint({ id: 'p1' }));
      const before = await storage.loadStep('c1', 0);
      await expect(storage.appendAndLoadStep('nobody', [userDraft('nobody', 'm0')], undefined, undefined, 0)).rejects.toMatchObject(storageError('not_found'));
      const boom = new Error('boom');
      await expect(
        storage.appendAndLoadStep(
          'c1',
          [userDraft('c1', 'm0')],
          () => {
            throw boom;
          },
          abandon,
          0,
        ),
      ).rejects.toBe(boom);
      await expect(storage.appendAndLoadStep('c1', [userDraft('c1', 'm0')], undefined, (p) => ({ pausePoint: p, messages: [] }), 0)).rejects.toMatchObject(
        storageError('invalid'),
      );
      expect(await storage.loadStep('c1', 0)).toEqual(before);
    });
  });
}
