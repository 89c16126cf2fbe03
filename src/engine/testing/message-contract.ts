import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Conversation } from '../records/index.ts';
import type { StoragePort } from '../storage-port.ts';
import { makeConversation, userDraft } from './make-records.ts';
import { storageError } from './storage-contract-helpers.ts';

/**
 * The StoragePort contract for a conversation's messages: append, list, put
 * and the conversation update that comes with them. Registered by
 * describeStoragePort, whose hooks give each test a fresh storage.
 */
export function describeMessageContract(storageOf: () => StoragePort): void {
  describe('messages', () => {
    let storage: StoragePort;
    beforeEach(async () => {
      storage = storageOf();
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
}
