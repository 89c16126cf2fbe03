import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StepRecords, StoragePort } from '../storage-port.ts';
import type { Conversation } from '../records/index.ts';
import { makeConversation, makeLedgerEntry, makePausePoint, userDraft } from './make-records.ts';
import { describeAppendAndLoadContract } from './append-and-load-contract.ts';
import { describeBranchStampContract } from './branch-stamp-contract.ts';
import { describePausePointContract } from './pause-point-contract.ts';
import { describeSettleAndLoadContract } from './settle-and-load-contract.ts';
import { resolve, storageError } from './storage-contract-helpers.ts';

export interface StorageUnderTest {
  storage: StoragePort;
  cleanup(): Promise<void>;
}

/**
 * The semantics every StoragePort must have, registered as a vitest `describe`
 * block. Each test gets a fresh, empty storage from `makeStorage`.
 */
export function describeStoragePort(name: string, makeStorage: () => Promise<StorageUnderTest>): void {
  describe(`StoragePort contract: ${name}`, () => {
    let storage: StoragePort;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ storage, cleanup } = await makeStorage());
    });
    afterEach(async () => {
      await cleanup();
    });

    describe('conversations', () => {
      it('stores and reads a conversation; an unknown id reads as undefined', async () => {
        await storage.putConversation(makeConversation());
        expect(await storage.getConversation('c1')).toEqual(makeConversation());
        expect(await storage.getConversation('nope')).toBeUndefined();
      });

      it('updateConversation writes and returns the updated record', async () => {
        await storage.putConversation(makeConversation());
        const written = await storage.updateConversation('c1', (c) => ({ ...c, title: 'Renamed', turns: c.turns + 1 }));
        expect(written).toMatchObject({ title: 'Renamed', turns: 1 });
        expect(await storage.getConversation('c1')).toEqual(written);
      });

      it('updateConversation on a missing id rejects with not_found and creates nothing', async () => {
        await expect(storage.updateConversation('missing', (c) => c)).rejects.toMatchObject(storageError('not_found'));
        expect(await storage.getConversation('missing')).toBeUndefined();
      });

      it('an update that throws writes nothing', async () => {
        await storage.putConversation(makeConversation());
        const boom = new Error('boom');
        await expect(
          storage.updateConversation('c1', (c) => {
            c.title = 'half-done';
            throw boom;
          }),
        ).rejects.toBe(boom);
        expect(await storage.getConversation('c1')).toEqual(makeConversation());
      });

      it('an update may not change the id', async () => {
        await storage.putConversation(makeConversation());
        await expect(storage.updateConversation('c1', (c) => ({ ...c, id: 'c2' }))).rejects.toMatchObject(storageError('invalid'));
        expect(await storage.getConversation('c2')).toBeUndefined();
      });
    });

    describe('deleteConversation', () => {
      it('removes a conversation with its messages, pause points and ledger entries, and nothing else', async () => {
        for (const id of ['c1', 'c2']) {
          await storage.putConversation(makeConversation({ id, nextSeq: 0 }));
          await storage.appendMessages(id, [userDraft(id, `${id}-m1`), userDraft(id, `${id}-m2`)]);
          await storage.createPausePoint(makePausePoint({ id: `${id}-p1`, conversationId: id }));
          await storage.putLedgerEntry(makeLedgerEntry({ id: `${id}:call_1`, conversationId: id }));
        }

        expect(await storage.deleteConversation('c1')).toBe(true);

        expect(await storage.getConversation('c1')).toBeUndefined();
        expect(await storage.listMessages('c1')).toEqual([]);
        expect(await storage.getPausePoint('c1-p1')).toBeUndefined();
        expect(await storage.listPausePoints('c1')).toEqual([]);
        expect(await storage.getLedgerEntry('c1:call_1')).toBeUndefined();
        expect((await storage.listMessages('c2')).map((m) => m.id)).toEqual(['c2-m1', 'c2-m2']);
        expect((await storage.listPausePoints('c2')).map((p) => p.id)).toEqual(['c2-p1']);
        expect(await storage.getLedgerEntry('c2:call_1')).toBeDefined();
        expect(await storage.deleteConversation('c1')).toBe(false);
      });

      it('frees the ids: a conversation made again under the same id starts empty', async () => {
        await storage.putConversation(makeConversation({ id: 'c1', nextSeq: 0 }));
        await storage.appendMessages('c1', [userDraft('c1', 'm1')]);
        await storage.deleteConversation('c1');
        await storage.putConversation(makeConversation({ id: 'c1', nextSeq: 0 }));
        await storage.appendMessages('c1', [userDraft('c1', 'm1')]);
        expect((await storage.listMessages('c1')).map((m) => [m.id, m.seq])).toEqual([['m1', 0]]);
      });
    });

    describe('messages', () => {
      beforeEach(async () => {
        await storage.putConversation(makeConversation({ id: 'c1', nextSeq: 3, updatedAt: 1_000 }));
      });

      it('appendMessages numbers drafts from nextSeq and moves nextSeq and updatedAt past them', async () => {
        const appended = await storage.appendMessages('c1', [userDraft('c1', 'm1', 'a', 2_000), userDraft('c1', 'm2', 'b', 2_500)]);
        expect(appended.map((m) => [m.id, m.seq])).toEqual([
          ['m1', 3],
          ['m2', 4],
        ]);
        expect(await storage.getConversation('c1')).toMatchObject({ nextSeq: 5, updatedAt: 2_500 });
        expect(await storage.listMessages('c1')).toEqual(appended);
      });

      it('updatedAt never moves backwards', async () => {
        await storage.appendMessages('c1', [userDraft('c1', 'm1', 'a', 500)]);
        expect(await storage.getConversation('c1')).toMatchObject({ nextSeq: 4, updatedAt: 1_000 });
      });

      it('appending nothing changes nothing', async () => {
        expect(await storage.appendMessages('c1', [])).toEqual([]);
        expect(await storage.getConversation('c1')).toMatchObject({ nextSeq: 3, updatedAt: 1_000 });
      });

      it('concurrent appends get distinct, gapless seqs, each batch contiguous', async () => {
        const [a, b] = await Promise.all([
          storage.appendMessages('c1', [userDraft('c1', 'a1'), userDraft('c1', 'a2'), userDraft('c1', 'a3')]),
          storage.appendMessages('c1', [userDraft('c1', 'b1'), userDraft('c1', 'b2')]),
        ]);
        const seqs = [...a, ...b].map((m) => m.seq).sort((x, y) => x - y);
        expect(seqs).toEqual([3, 4, 5, 6, 7]);
        for (const batch of [a, b]) {
          expect(batch.map((m) => m.seq - batch[0]!.seq)).toEqual(batch.map((_, i) => i));
        }
        expect(await storage.getConversation('c1')).toMatchObject({ nextSeq: 8 });
      });

      it('listMessages returns only that conversation, ordered by seq', async () => {
        await storage.putConversation(makeConversation({ id: 'c2' }));
        for (let i = 0; i < 12; i++) {
          await storage.appendMessages(i % 2 ? 'c1' : 'c2', [userDraft(i % 2 ? 'c1' : 'c2', `m${i}`)]);
        }
        const listed = await storage.listMessages('c1');
        expect(listed.map((m) => m.seq)).toEqual([3, 4, 5, 6, 7, 8]);
        expect(listed.every((m) => m.conversationId === 'c1')).toBe(true);
        expect(await storage.listMessages('nobody')).toEqual([]);
      });

      it('appending to a missing conversation rejects with not_found and writes nothing', async () => {
        await expect(storage.appendMessages('missing', [userDraft('missing', 'm1')])).rejects.toMatchObject(storageError('not_found'));
        expect(await storage.listMessages('missing')).toEqual([]);
      });

      it('a draft of another conversation is refused and nothing of the batch is written', async () => {
        await expect(storage.appendMessages('c1', [userDraft('c1', 'm1'), userDraft('c2', 'm2')])).rejects.toMatchObject(
          storageError('invalid'),
        );
        expect(await storage.listMessages('c1')).toEqual([]);
        expect(await storage.getConversation('c1')).toMatchObject({ nextSeq: 3 });
      });

      it('a message id that already exists is a conflict and nothing of the batch is written', async () => {
        await storage.appendMessages('c1', [userDraft('c1', 'm1')]);
        await expect(storage.appendMessages('c1', [userDraft('c1', 'm2'), userDraft('c1', 'm1')])).rejects.toMatchObject(
          storageError('conflict'),
        );
        expect((await storage.listMessages('c1')).map((m) => m.id)).toEqual(['m1']);
        expect(await storage.getConversation('c1')).toMatchObject({ nextSeq: 4 });
      });

      it('listMessages from a seq returns that seq and the ones after it, of that conversation only', async () => {
        await storage.putConversation(makeConversation({ id: 'c2', nextSeq: 3 }));
        for (let i = 0; i < 6; i++) await storage.appendMessages('c1', [userDraft('c1', `m${i}`)]);
        await storage.appendMessages('c2', [userDraft('c2', 'other')]);
        expect((await storage.listMessages('c1', 5)).map((m) => [m.id, m.seq])).toEqual([
          ['m2', 5],
          ['m3', 6],
          ['m4', 7],
          ['m5', 8],
        ]);
        expect((await storage.listMessages('c1', 0)).map((m) => m.seq)).toEqual([3, 4, 5, 6, 7, 8]);
        expect(await storage.listMessages('c1', 9)).toEqual([]);
        expect(await storage.listMessages('nobody', 1)).toEqual([]);
      });

      it('appendMessages with an update writes the messages and the updated conversation together', async () => {
        const seen: number[] = [];
        const appended = await storage.appendMessages('c1', [userDraft('c1', 'm1', 'a', 2_000)], (c) => {
          seen.push(c.nextSeq, c.updatedAt);
          return { ...c, turns: c.turns + 1, state: { kind: 'running', owner: 'tab-A', since: 2_000 } };
        });
        expect(seen).toEqual([4, 2_000]);
        expect(appended.map((m) => [m.id, m.seq])).toEqual([['m1', 3]]);
        expect(await storage.getConversation('c1')).toMatchObject({ nextSeq: 4, updatedAt: 2_000, turns: 1, state: { kind: 'running', owner: 'tab-A' } });
        expect(await storage.listMessages('c1')).toEqual(appended);
      });

      it('appendMessages with an update that throws writes nothing, even when it mutated what it was given', async () => {
        const boom = new Error('boom');
        await expect(
          storage.appendMessages('c1', [userDraft('c1', 'm1'), userDraft('c1', 'm2')], (c) => {
            c.title = 'half-done';
            throw boom;
          }),
        ).rejects.toBe(boom);
        expect(await storage.listMessages('c1')).toEqual([]);
        expect(await storage.getConversation('c1')).toEqual(makeConversation({ id: 'c1', nextSeq: 3, updatedAt: 1_000 }));
      });

      it('an update while appending may change neither the id nor nextSeq', async () => {
        await expect(storage.appendMessages('c1', [userDraft('c1', 'm1')], (c) => ({ ...c, id: 'c2' }))).rejects.toMatchObject(storageError('invalid'));
        await expect(storage.appendMessages('c1', [userDraft('c1', 'm1')], (c) => ({ ...c, nextSeq: 3 }))).rejects.toMatchObject(storageError('invalid'));
        expect(await storage.getConversation('c2')).toBeUndefined();
        expect(await storage.listMessages('c1')).toEqual([]);
        expect(await storage.getConversation('c1')).toMatchObject({ nextSeq: 3 });
      });

      it('appending nothing with an update writes nothing, the update included', async () => {
        const update = vi.fn((c: Conversation) => ({ ...c, title: 'changed' }));
        expect(await storage.appendMessages('c1', [], update)).toEqual([]);
        expect(await storage.getConversation('c1')).toMatchObject({ title: 'A conversation', nextSeq: 3 });
      });

      it('concurrent appends with updates each see the other’s write (no lost update)', async () => {
        const bump = (c: Conversation) => ({ ...c, turns: c.turns + 1 });
        await Promise.all([
          storage.appendMessages('c1', [userDraft('c1', 'a')], bump),
          storage.appendMessages('c1', [userDraft('c1', 'b')], bump),
          storage.appendMessages('c1', [userDraft('c1', 'c')], bump),
        ]);
        expect(await storage.getConversation('c1')).toMatchObject({ turns: 3, nextSeq: 6 });
      });

      it('putMessage replaces a stored message in place', async () => {
        const [first] = await storage.appendMessages('c1', [userDraft('c1', 'm1'), userDraft('c1', 'm2')]);
        await storage.putMessage({ ...first!, content: 'edited' });
        expect((await storage.listMessages('c1')).map((m) => [m.id, m.content])).toEqual([
          ['m1', 'edited'],
          ['m2', 'm2'],
        ]);
      });

      it('putMessage with an update writes the message and the updated conversation together', async () => {
        const [first] = await storage.appendMessages('c1', [userDraft('c1', 'm1')]);
        await storage.putMessage({ ...first!, content: 'final' }, (c) => ({ ...c, state: { kind: 'idle' }, title: 'Done' }));
        expect(await storage.listMessages('c1')).toMatchObject([{ id: 'm1', content: 'final' }]);
        expect(await storage.getConversation('c1')).toMatchObject({ title: 'Done', state: { kind: 'idle' }, nextSeq: 4 });
      });

      it('putMessage with an update that throws, or that moves the numbering, writes nothing', async () => {
        const [first] = await storage.appendMessages('c1', [userDraft('c1', 'm1')]);
        const before = await storage.getConversation('c1');
        const boom = new Error('boom');
        await expect(
          storage.putMessage({ ...first!, content: 'lost' }, (c) => {
            c.title = 'half-done';
            throw boom;
          }),
        ).rejects.toBe(boom);
        await expect(storage.putMessage({ ...first!, content: 'lost' }, (c) => ({ ...c, nextSeq: 0 }))).rejects.toMatchObject(storageError('invalid'));
        expect(await storage.listMessages('c1')).toMatchObject([{ id: 'm1', content: 'm1' }]);
        expect(await storage.getConversation('c1')).toEqual(before);
      });

      it('putMessage with an update of a missing conversation rejects with not_found and writes nothing', async () => {
        const [first] = await storage.appendMessages('c1', [userDraft('c1', 'm1')]);
        await expect(storage.putMessage({ ...first!, conversationId: 'gone', content: 'lost' }, (c) => c)).rejects.toMatchObject(storageError('not_found'));
        expect(await storage.listMessages('c1')).toMatchObject([{ id: 'm1', content: 'm1' }]);
        expect(await storage.listMessages('gone')).toEqual([]);
      });
    });

    describePausePointContract(() => storage);
    describeAppendAndLoadContract(() => storage);
    describeSettleAndLoadContract(() => storage);
    describeBranchStampContract(() => storage);

    describe('loadStep', () => {
      beforeEach(async () => {
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

    describe('isolation', () => {
      it('records read are copies: mutating them does not change storage', async () => {
        await storage.putConversation(makeConversation());
        await storage.appendMessages('c1', [userDraft('c1', 'm1')]);
        await storage.createPausePoint(makePausePoint());
        await storage.putLedgerEntry(makeLedgerEntry());

        const conversation = await storage.getConversation('c1');
        conversation!.title = 'mutated';
        const [message] = await storage.listMessages('c1');
        message!.content = 'mutated';
        const pausePoint = await storage.getPausePoint('p1');
        (pausePoint!.payload as { amount: number }).amount = 1_000_000;
        const [listed] = await storage.listPausePoints('c1');
        listed!.status = 'expired';
        const entry = await storage.getLedgerEntry('c1:call_1');
        entry!.status = 'succeeded';

        expect(await storage.getConversation('c1')).toMatchObject({ title: 'A conversation' });
        expect(await storage.listMessages('c1')).toMatchObject([{ content: 'm1' }]);
        expect(await storage.getPausePoint('p1')).toEqual(makePausePoint());
        expect(await storage.getLedgerEntry('c1:call_1')).toEqual(makeLedgerEntry());
      });

      it('records written are copies: mutating the argument afterwards does not change storage', async () => {
        const conversation = makeConversation();
        await storage.putConversation(conversation);
        conversation.title = 'mutated';
        const pausePoint = makePausePoint();
        await storage.createPausePoint(pausePoint);
        (pausePoint.payload as { amount: number }).amount = 0;
        const draft = userDraft('c1', 'm1');
        const [appended] = await storage.appendMessages('c1', [draft]);
        draft.content = 'mutated';
        appended!.content = 'mutated too';

        expect(await storage.getConversation('c1')).toMatchObject({ title: 'A conversation' });
        expect(await storage.getPausePoint('p1')).toEqual(makePausePoint());
        expect(await storage.listMessages('c1')).toMatchObject([{ content: 'm1' }]);
      });
    });
  });
}
