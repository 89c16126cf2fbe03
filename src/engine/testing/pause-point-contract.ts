import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, PausePoint } from '../records/index.ts';
import type { MessageDraft, StoragePort } from '../storage-port.ts';
import { makeConversation, makeLedgerEntry, makePausePoint, userDraft } from './make-records.ts';
import { resolve, storageError } from './storage-contract-helpers.ts';

/**
 * The StoragePort contract for pause points and the execution ledger: the
 * compare-and-set of decisions and of executions. Registered by
 * describeStoragePort, whose hooks give each test a fresh storage.
 */
export function describePausePointContract(storageOf: () => StoragePort): void {
  let storage: StoragePort;
  beforeEach(() => {
    storage = storageOf();
  });

  describe('pause points', () => {
    beforeEach(async () => {
      await storage.putConversation(makeConversation({ id: 'c1', nextSeq: 2 }));
      await storage.createPausePoint(makePausePoint({ id: 'p1' }));
    });

    it('lists a conversation’s pause points oldest first', async () => {
      await storage.putConversation(makeConversation({ id: 'c2' }));
      await storage.createPausePoint(makePausePoint({ id: 'p0', createdAt: 100 }));
      await storage.createPausePoint(makePausePoint({ id: 'p3', createdAt: 9_000 }));
      await storage.createPausePoint(makePausePoint({ id: 'p2', createdAt: 9_000 }));
      await storage.createPausePoint(makePausePoint({ id: 'other', conversationId: 'c2' }));
      expect((await storage.listPausePoints('c1')).map((p) => p.id)).toEqual(['p0', 'p1', 'p2', 'p3']);
      expect(await storage.getPausePoint('p1')).toEqual(makePausePoint({ id: 'p1' }));
      expect(await storage.getPausePoint('nope')).toBeUndefined();
    });

    it('lists a conversation’s pending pause points only, oldest first', async () => {
      await storage.putConversation(makeConversation({ id: 'c2' }));
      await storage.createPausePoint(makePausePoint({ id: 'p0', createdAt: 100 }));
      await storage.createPausePoint(makePausePoint({ id: 'p3', createdAt: 9_000 }));
      await storage.createPausePoint(makePausePoint({ id: 'p2', createdAt: 9_000 }));
      await storage.createPausePoint(makePausePoint({ id: 'gone', createdAt: 50, status: 'expired', expiredReason: 'abandoned', resolvedAt: 60 }));
      await storage.createPausePoint(makePausePoint({ id: 'other', conversationId: 'c2' }));
      await storage.settlePausePoint('p1', (p) => resolve(p, []));
      expect((await storage.listPendingPausePoints('c1')).map((p) => p.id)).toEqual(['p0', 'p2', 'p3']);
      expect((await storage.listPendingPausePoints('c2')).map((p) => p.id)).toEqual(['other']);
      expect(await storage.listPendingPausePoints('nobody')).toEqual([]);
    });

    it('appendMessages with setAside settles the conversation’s pending pause points and appends their messages first, in one transaction', async () => {
      await storage.putConversation(makeConversation({ id: 'c2' }));
      await storage.createPausePoint(makePausePoint({ id: 'p0', createdAt: 100 }));
      await storage.createPausePoint(makePausePoint({ id: 'done', createdAt: 50, status: 'expired', expiredReason: 'abandoned', resolvedAt: 60 }));
      await storage.createPausePoint(makePausePoint({ id: 'other', conversationId: 'c2' }));
      const seen: string[] = [];
      const appended = await storage.appendMessages(
        'c1',
        [userDraft('c1', 'm-user', 'moving on')],
        (c) => ({ ...c, title: 'Updated' }),
        (p) => {
          seen.push(p.id);
          return {
            pausePoint: { ...p, status: 'expired', expiredReason: 'abandoned', resolvedAt: 3_000 },
            messages: [userDraft('c1', `m-${p.id}`, `${p.id} set aside`)],
          };
        },
      );
      // Oldest first, pending ones of this conversation only; their messages before the drafts.
      expect(seen).toEqual(['p0', 'p1']);
      expect(appended.map((m) => [m.id, m.seq])).toEqual([
        ['m-p0', 2],
        ['m-p1', 3],
        ['m-user', 4],
      ]);
      expect((await storage.listMessages('c1')).map((m) => m.id)).toEqual(['m-p0', 'm-p1', 'm-user']);
      expect(await storage.listPendingPausePoints('c1')).toEqual([]);
      expect(await storage.getPausePoint('p1')).toMatchObject({ status: 'expired', expiredReason: 'abandoned', resolvedAt: 3_000 });
      expect(await storage.getPausePoint('done')).toMatchObject({ resolvedAt: 60 });
      expect(await storage.getPausePoint('other')).toMatchObject({ status: 'pending' });
      expect(await storage.getConversation('c1')).toMatchObject({ title: 'Updated', nextSeq: 5 });
    });

    it('appendMessages with setAside writes nothing when a pause point would stay pending, or the update throws', async () => {
      const before = await storage.getConversation('c1');
      await expect(
        storage.appendMessages('c1', [userDraft('c1', 'm1')], undefined, (p) => ({ pausePoint: p, messages: [] })),
      ).rejects.toMatchObject(storageError('invalid'));
      await expect(
        storage.appendMessages(
          'c1',
          [userDraft('c1', 'm1')],
          () => {
            throw new Error('boom');
          },
          (p) => ({ pausePoint: { ...p, status: 'expired', expiredReason: 'abandoned', resolvedAt: 3_000 }, messages: [] }),
        ),
      ).rejects.toThrow('boom');
      expect(await storage.getPausePoint('p1')).toMatchObject({ status: 'pending' });
      expect(await storage.listMessages('c1')).toEqual([]);
      expect(await storage.getConversation('c1')).toEqual(before);
    });

    it('loadCalls reads the pause points (any status, this conversation, oldest first) and ledger entries of given calls', async () => {
      await storage.putConversation(makeConversation({ id: 'c2' }));
      await storage.settlePausePoint('p1', (p) => resolve(p, []));
      await storage.createPausePoint(makePausePoint({ id: 'p0', toolCallId: 'call_1', origin: 'unknown_outcome', createdAt: 100 }));
      await storage.createPausePoint(makePausePoint({ id: 'p2', toolCallId: 'call_2', createdAt: 2_000 }));
      await storage.createPausePoint(makePausePoint({ id: 'p3', toolCallId: 'call_3', createdAt: 3_000 }));
      await storage.createPausePoint(makePausePoint({ id: 'other', conversationId: 'c2', toolCallId: 'call_2' }));
      await storage.putLedgerEntry(makeLedgerEntry());
      await storage.putLedgerEntry(makeLedgerEntry({ id: 'c2:call_3', conversationId: 'c2', toolCallId: 'call_3' }));

      const calls = await storage.loadCalls('c1', ['call_1', 'call_3']);
      expect(calls.pausePoints.map((p) => [p.id, p.status])).toEqual([
        ['p0', 'pending'],
        ['p1', 'resolved'],
        ['p3', 'pending'],
      ]);
      expect(calls.ledger).toEqual([makeLedgerEntry()]);
      expect((await storage.loadCalls('c2', ['call_2'])).pausePoints.map((p) => p.id)).toEqual(['other']);
      expect(await storage.loadCalls('c1', ['call_9'])).toEqual({ pausePoints: [], ledger: [] });
      expect(await storage.loadCalls('c1', [])).toEqual({ pausePoints: [], ledger: [] });
    });

    it('creating a pause point whose id exists is a conflict and never overwrites it', async () => {
      await storage.settlePausePoint('p1', (p) => resolve(p, []));
      await expect(storage.createPausePoint(makePausePoint({ id: 'p1' }))).rejects.toMatchObject(storageError('conflict'));
      expect(await storage.getPausePoint('p1')).toMatchObject({ status: 'resolved' });
    });

    it('settling an unknown id reports not_found', async () => {
      const settle = vi.fn((p: PausePoint) => resolve(p, []));
      expect(await storage.settlePausePoint('nope', settle)).toEqual({ ok: false, reason: 'not_found' });
      expect(settle).not.toHaveBeenCalled();
    });

    it('a committed settlement writes the pause point and its messages together', async () => {
      const result = await storage.settlePausePoint('p1', (p) => resolve(p, [userDraft('c1', 'd1', 'Approval approval: approve', 5_000)]));
      expect(result).toMatchObject({ ok: true, pausePoint: { id: 'p1', status: 'resolved' }, messages: [{ id: 'd1', seq: 2 }] });
      expect(await storage.getPausePoint('p1')).toMatchObject({ status: 'resolved', resolution: 'approve', resolvedAt: 5_000 });
      expect(await storage.listMessages('c1')).toMatchObject([{ id: 'd1', seq: 2, content: 'Approval approval: approve' }]);
      expect(await storage.getConversation('c1')).toMatchObject({ nextSeq: 3, updatedAt: 5_000 });
    });

    it('a refused settlement writes nothing, even when it mutated what it was given', async () => {
      const result = await storage.settlePausePoint('p1', (p) => {
        p.status = 'resolved';
        return { commit: false, reason: 'The edited payload is not valid.' };
      });
      expect(result).toEqual({ ok: false, reason: 'refused', message: 'The edited payload is not valid.' });
      expect(await storage.getPausePoint('p1')).toEqual(makePausePoint({ id: 'p1' }));
      expect(await storage.listMessages('c1')).toEqual([]);
      expect(await storage.getConversation('c1')).toMatchObject({ nextSeq: 2 });
    });

    it('a settlement that throws writes nothing', async () => {
      const boom = new Error('boom');
      await expect(
        storage.settlePausePoint('p1', () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await storage.getPausePoint('p1')).toMatchObject({ status: 'pending' });
    });

    it('a settlement whose messages cannot be appended leaves the pause point pending', async () => {
      await storage.createPausePoint(makePausePoint({ id: 'orphan', conversationId: 'gone' }));
      await expect(storage.settlePausePoint('orphan', (p) => resolve(p, [userDraft('gone', 'd1')]))).rejects.toMatchObject(
        storageError('not_found'),
      );
      expect(await storage.getPausePoint('orphan')).toMatchObject({ status: 'pending' });
    });

    it('a settlement may not replace another pause point', async () => {
      await expect(
        storage.settlePausePoint('p1', (p) => resolve({ ...p, id: 'p9' }, [])),
      ).rejects.toMatchObject(storageError('invalid'));
      expect(await storage.getPausePoint('p9')).toBeUndefined();
      expect(await storage.getPausePoint('p1')).toMatchObject({ status: 'pending' });
    });

    it('of two concurrent settlements the first wins; the second is told it was already decided', async () => {
      const first = vi.fn((p: PausePoint) => resolve(p, [userDraft('c1', 'first')]));
      const second = vi.fn((p: PausePoint) => resolve(p, [userDraft('c1', 'second')], 'decline'));
      const [a, b] = await Promise.all([storage.settlePausePoint('p1', first), storage.settlePausePoint('p1', second)]);
      expect(a).toMatchObject({ ok: true });
      expect(b).toMatchObject({ ok: false, reason: 'already_decided', pausePoint: { status: 'resolved', resolution: 'approve' } });
      expect(second).not.toHaveBeenCalled();
      expect((await storage.listMessages('c1')).map((m) => m.id)).toEqual(['first']);
    });

    it('a settlement’s conversation update is written with it and sees how many are still pending', async () => {
      await storage.createPausePoint(makePausePoint({ id: 'p2', toolCallId: 'call_2' }));
      const seen: number[] = [];
      const update = (c: Conversation, stillPending: number): Conversation => {
        seen.push(stillPending);
        return { ...c, state: stillPending > 0 ? { kind: 'paused', pending: stillPending } : { kind: 'idle' } };
      };
      await storage.settlePausePoint('p1', (p) => ({ ...resolve(p, [userDraft('c1', 'd1')]), update }));
      expect(await storage.getConversation('c1')).toMatchObject({ state: { kind: 'paused', pending: 1 }, nextSeq: 3 });
      // With no messages the update is still written.
      await storage.settlePausePoint('p2', (p) => ({ ...resolve(p, []), update }));
      expect(seen).toEqual([1, 0]);
      expect(await storage.getConversation('c1')).toMatchObject({ state: { kind: 'idle' }, nextSeq: 3 });
    });

    it('a settlement whose conversation update throws or moves the numbering writes nothing', async () => {
      const boom = new Error('boom');
      await expect(
        storage.settlePausePoint('p1', (p) => ({
          ...resolve(p, [userDraft('c1', 'd1')]),
          update: () => {
            throw boom;
          },
        })),
      ).rejects.toBe(boom);
      await expect(
        storage.settlePausePoint('p1', (p) => ({ ...resolve(p, []), update: (c) => ({ ...c, nextSeq: 99 }) })),
      ).rejects.toMatchObject(storageError('invalid'));
      expect(await storage.getPausePoint('p1')).toMatchObject({ status: 'pending' });
      expect(await storage.listMessages('c1')).toEqual([]);
      expect(await storage.getConversation('c1')).toEqual(makeConversation({ id: 'c1', nextSeq: 2 }));
    });

    it('pauseConversation adds new pause points and writes the state counting them with the pending ones', async () => {
      await storage.putConversation(makeConversation({ id: 'c2' }));
      await storage.createPausePoint(makePausePoint({ id: 'p3', toolCallId: 'call_3', status: 'resolved', resolution: 'approve', resolvedAt: 2_000 }));
      await storage.createPausePoint(makePausePoint({ id: 'other', conversationId: 'c2' }));
      const added = [makePausePoint({ id: 'p4', toolCallId: 'call_4' }), makePausePoint({ id: 'p5', toolCallId: 'call_5' })];
      const written = await storage.pauseConversation('c1', added, (c, pending) => ({ ...c, state: { kind: 'paused', pending } }));
      expect(written.state).toEqual({ kind: 'paused', pending: 3 });
      expect(await storage.getConversation('c1')).toEqual(written);
      expect((await storage.listPendingPausePoints('c1')).map((p) => p.id)).toEqual(['p1', 'p4', 'p5']);
      // With nothing new it only counts.
      expect((await storage.pauseConversation('c2', [], (c, pending) => ({ ...c, turns: pending }))).turns).toBe(1);
    });

    it('pauseConversation writes nothing when a pause point exists, belongs elsewhere, or the update fails', async () => {
      const before = await storage.getConversation('c1');
      const paused = (c: Conversation, pending: number): Conversation => ({ ...c, state: { kind: 'paused', pending } });
      await expect(storage.pauseConversation('c1', [makePausePoint({ id: 'new' }), makePausePoint({ id: 'p1' })], paused)).rejects.toMatchObject(storageError('conflict'));
      await expect(storage.pauseConversation('c1', [makePausePoint({ id: 'new', conversationId: 'c2' })], paused)).rejects.toMatchObject(storageError('invalid'));
      await expect(storage.pauseConversation('missing', [], paused)).rejects.toMatchObject(storageError('not_found'));
      await expect(storage.pauseConversation('c1', [makePausePoint({ id: 'new' })], (c) => ({ ...c, id: 'c9' }))).rejects.toMatchObject(storageError('invalid'));
      const boom = new Error('boom');
      await expect(
        storage.pauseConversation('c1', [makePausePoint({ id: 'new' })], () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await storage.getPausePoint('new')).toBeUndefined();
      expect(await storage.getPausePoint('p1')).toEqual(makePausePoint({ id: 'p1' }));
      expect(await storage.getConversation('c1')).toEqual(before);
    });

    it('pauseConversation with drafts appends them first, in the same transaction: the update sees them numbered', async () => {
      const added = [makePausePoint({ id: 'p4', toolCallId: 'call_4' })];
      const seen: Conversation[] = [];
      const written = await storage.pauseConversation(
        'c1',
        added,
        (c, pending) => (seen.push(c), { ...c, turns: c.turns + 1, state: { kind: 'paused', pending } }),
        [userDraft('c1', 'answer', 'the answer', 7_000)],
      );
      expect(seen).toMatchObject([{ nextSeq: 3, updatedAt: 7_000 }]);
      expect(written).toMatchObject({ nextSeq: 3, turns: 1, state: { kind: 'paused', pending: 2 } });
      expect(await storage.getConversation('c1')).toEqual(written);
      expect((await storage.listMessages('c1')).map((m) => [m.id, m.seq])).toEqual([['answer', 2]]);
      expect((await storage.listPendingPausePoints('c1')).map((p) => p.id)).toEqual(['p1', 'p4']);
    });

    it('pauseConversation with drafts writes nothing when a draft conflicts, a pause point exists, or the update moves nextSeq', async () => {
      await storage.appendMessages('c1', [userDraft('c1', 'm2')]);
      const before = await storage.getConversation('c1');
      const paused = (c: Conversation, pending: number): Conversation => ({ ...c, state: { kind: 'paused', pending } });
      const answer = [userDraft('c1', 'answer')];
      await expect(storage.pauseConversation('c1', [makePausePoint({ id: 'new' })], paused, [userDraft('c1', 'm2')])).rejects.toMatchObject(storageError('conflict'));
      await expect(storage.pauseConversation('c1', [makePausePoint({ id: 'p1' })], paused, answer)).rejects.toMatchObject(storageError('conflict'));
      await expect(storage.pauseConversation('c1', [makePausePoint({ id: 'new' })], (c) => ({ ...c, nextSeq: 99 }), answer)).rejects.toMatchObject(
        storageError('invalid'),
      );
      expect(await storage.getPausePoint('new')).toBeUndefined();
      expect((await storage.listMessages('c1')).map((m) => m.id)).toEqual(['m2']);
      expect(await storage.getConversation('c1')).toEqual(before);
    });

    it('an expired pause point cannot be settled', async () => {
      await storage.createPausePoint(makePausePoint({ id: 'old', status: 'expired', expiredReason: 'abandoned' }));
      expect(await storage.settlePausePoint('old', (p) => resolve(p, []))).toMatchObject({
        ok: false,
        reason: 'already_decided',
        pausePoint: { status: 'expired' },
      });
    });

    it('refuses to resolve a pending pause point at or past its expiry, and writes nothing', async () => {
      // `resolve` decides at 5_000.
      const due = makePausePoint({ id: 'due', toolCallId: 'call_2', expiresAt: 5_000 });
      await storage.createPausePoint(due);
      const settle = vi.fn((p: PausePoint) => ({ ...resolve(p, [userDraft('c1', 'late')]), update: (c: Conversation) => ({ ...c, title: 'moved' }) }));
      expect(await storage.settlePausePoint('due', settle)).toEqual({ ok: false, reason: 'expired', pausePoint: due });
      expect(await storage.getPausePoint('due')).toEqual(due);
      expect(await storage.listMessages('c1')).toEqual([]);
      expect(await storage.getConversation('c1')).toEqual(makeConversation({ id: 'c1', nextSeq: 2 }));
    });

    it('lets a due pause point be expired, and one not yet due be resolved', async () => {
      await storage.createPausePoint(makePausePoint({ id: 'due', toolCallId: 'call_2', expiresAt: 5_000 }));
      await storage.createPausePoint(makePausePoint({ id: 'early', toolCallId: 'call_3', expiresAt: 5_001 }));
      const expired = await storage.settlePausePoint('due', (p) => ({
        commit: true,
        pausePoint: { ...p, status: 'expired', resolvedAt: 6_000, expiredReason: 'timeout' },
        messages: [],
      }));
      expect(expired).toMatchObject({ ok: true, pausePoint: { status: 'expired' } });
      expect(await storage.settlePausePoint('early', (p) => resolve(p, []))).toMatchObject({ ok: true, pausePoint: { status: 'resolved' } });
    });
  });

  describe('execution ledger', () => {
    it('beginExecution records the entry and refuses a second begin for the same id', async () => {
      expect(await storage.beginExecution(makeLedgerEntry())).toBe(true);
      expect(await storage.beginExecution(makeLedgerEntry({ attempts: 2 }))).toBe(false);
      expect(await storage.getLedgerEntry('c1:call_1')).toEqual(makeLedgerEntry());
    });

    it('with nothing to reopen, an entry of any status is kept and the begin refused', async () => {
      for (const status of ['started', 'succeeded', 'failed', 'unknown', 'skipped'] as const) {
        const id = `c1:call_${status}`;
        await storage.putLedgerEntry(makeLedgerEntry({ id, toolCallId: `call_${status}`, status }));
        expect(await storage.beginExecution(makeLedgerEntry({ id, toolCallId: `call_${status}`, attempts: 2 }))).toBe(false);
        expect(await storage.getLedgerEntry(id)).toMatchObject({ status, attempts: 1 });
      }
    });

    it('of two concurrent begins exactly one runs', async () => {
      const results = await Promise.all([storage.beginExecution(makeLedgerEntry()), storage.beginExecution(makeLedgerEntry())]);
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('reopens an entry only from a listed status', async () => {
      await storage.putLedgerEntry(makeLedgerEntry({ status: 'unknown' }));
      expect(await storage.beginExecution(makeLedgerEntry({ attempts: 2 }), ['failed'])).toBe(false);
      expect(await storage.beginExecution(makeLedgerEntry({ attempts: 2 }), ['failed', 'unknown'])).toBe(true);
      expect(await storage.getLedgerEntry('c1:call_1')).toMatchObject({ status: 'started', attempts: 2 });
      expect(await storage.beginExecution(makeLedgerEntry({ attempts: 3 }), ['failed', 'unknown'])).toBe(false);
    });

    it('finishExecution writes the final entry and appends the result together', async () => {
      await storage.putConversation(makeConversation({ id: 'c1', nextSeq: 4 }));
      await storage.beginExecution(makeLedgerEntry());
      const done = makeLedgerEntry({ status: 'succeeded', finishedAt: 3_500, result: 'Sent.' });
      const result: MessageDraft = { v: 1, id: 'r1', conversationId: 'c1', createdAt: 3_500, role: 'tool', toolCallId: 'call_1', toolName: 'send_invoice', content: 'Sent.', outcome: 'done' };
      expect(await storage.finishExecution(done, result)).toMatchObject({ id: 'r1', seq: 4 });
      expect(await storage.getLedgerEntry('c1:call_1')).toEqual(done);
      expect(await storage.listMessages('c1')).toMatchObject([{ id: 'r1', seq: 4, content: 'Sent.' }]);
    });

    it('finishExecution whose result cannot be stored writes neither', async () => {
      await storage.putConversation(makeConversation({ id: 'c1' }));
      await storage.beginExecution(makeLedgerEntry());
      await storage.appendMessages('c1', [userDraft('c1', 'taken')]);
      const done = makeLedgerEntry({ status: 'succeeded', finishedAt: 3_500, result: 'Sent.' });
      await expect(storage.finishExecution(done, userDraft('c1', 'taken'))).rejects.toMatchObject(storageError('conflict'));
      await expect(storage.finishExecution(done, userDraft('c2', 'r2'))).rejects.toMatchObject(storageError('invalid'));
      await expect(storage.finishExecution({ ...done, conversationId: 'gone' }, userDraft('gone', 'r3'))).rejects.toMatchObject(
        storageError('not_found'),
      );
      expect(await storage.getLedgerEntry('c1:call_1')).toEqual(makeLedgerEntry());
      expect((await storage.listMessages('c1')).map((m) => m.id)).toEqual(['taken']);
    });

    it('putLedgerEntry replaces the entry', async () => {
      await storage.beginExecution(makeLedgerEntry());
      const done = makeLedgerEntry({ status: 'succeeded', finishedAt: 3_500, result: 'Sent.' });
      await storage.putLedgerEntry(done);
      expect(await storage.getLedgerEntry('c1:call_1')).toEqual(done);
      expect(await storage.getLedgerEntry('nope')).toBeUndefined();
    });
  });
}
