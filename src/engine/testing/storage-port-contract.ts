import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoragePort } from '../storage-port.ts';
import { makeConversation, makeLedgerEntry, makePausePoint, userDraft } from './make-records.ts';
import { describeAppendAndLoadContract } from './append-and-load-contract.ts';
import { describeBranchStampContract } from './branch-stamp-contract.ts';
import { describeLoadStepContract } from './load-step-contract.ts';
import { describeMessageContract } from './message-contract.ts';
import { describePausePointContract } from './pause-point-contract.ts';
import { describeSettleAndLoadContract } from './settle-and-load-contract.ts';
import { storageError } from './storage-contract-helpers.ts';

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

    describeMessageContract(() => storage);
    describePausePointContract(() => storage);
    describeAppendAndLoadContract(() => storage);
    describeSettleAndLoadContract(() => storage);
    describeBranchStampContract(() => storage);
    describeLoadStepContract(() => storage);

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
