import 'fake-indexeddb/auto';
import type { DBCore } from 'dexie';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../engine/records/index.ts';
import { makeConversation, userDraft } from '../engine/testing/make-records.ts';
import type { PausepointDb } from './db.ts';
import { DexieStorage } from './dexie-storage.ts';
import { liveMessages, liveTail } from './messages-repo.ts';
import { useTestDb } from './testing/open-test-db.ts';
import { waitForEmission } from './wait-for-emission.ts';

/** Counts the message rows IndexedDB hands back, whichever way Dexie asks for them. */
async function countMessageReads(db: PausepointDb): Promise<{ rows: number }> {
  const counter = { rows: 0 };
  // A middleware takes effect when the database opens.
  db.close();
  db.use({
    stack: 'dbcore',
    name: 'count-message-reads',
    create: (down: DBCore): DBCore => ({
      ...down,
      table(name) {
        const table = down.table(name);
        if (name !== 'messages') return table;
        return {
          ...table,
          async query(request) {
            const response = await table.query(request);
            counter.rows += response.result.length;
            return response;
          },
          async getMany(request) {
            const rows = await table.getMany(request);
            counter.rows += rows.length;
            return rows;
          },
          async openCursor(request) {
            const cursor = await table.openCursor(request);
            if (!cursor) return cursor;
            const start = cursor.start.bind(cursor);
            cursor.start = (onNext) =>
              start(() => {
                counter.rows++;
                onNext();
              });
            return cursor;
          },
        };
      },
    }),
  });
  await db.open();
  return counter;
}

describe('messages repository', () => {
  let db: PausepointDb;
  let storage: DexieStorage;
  useTestDb((fresh) => (db = fresh));
  beforeEach(async () => {
    storage = new DexieStorage(db);
    await storage.putConversation(makeConversation({ id: 'c1' }));
    await storage.putConversation(makeConversation({ id: 'c2' }));
  });

  it('liveMessages follows appends and in-place updates, in seq order', async () => {
    const live = liveMessages(db, 'c1');
    expect(await waitForEmission(live, () => true)).toEqual([]);

    const appended = waitForEmission(live, (list) => list.length === 2);
    const [first] = await storage.appendMessages('c1', [userDraft('c1', 'b'), userDraft('c1', 'a')]);
    await storage.appendMessages('c2', [userDraft('c2', 'elsewhere')]);
    expect((await appended).map((m) => [m.id, m.seq])).toEqual([
      ['b', 0],
      ['a', 1],
    ]);

    const streamed = waitForEmission(live, (list) => list[0]?.content === 'streamed');
    await storage.putMessage({ ...first!, content: 'streamed' });
    expect((await streamed).map((m) => m.id)).toEqual(['b', 'a']);
  });

  it('liveTail gives the newest messages oldest first, says whether older ones exist, and ignores other conversations', async () => {
    await storage.appendMessages(
      'c1',
      ['m0', 'm1', 'm2', 'm3', 'm4'].map((id) => userDraft('c1', id)),
    );
    await storage.appendMessages('c2', [userDraft('c2', 'later-elsewhere')]);

    const three = await waitForEmission(liveTail(db, 'c1', 3), () => true);
    expect(three.messages.map((m) => m.id)).toEqual(['m2', 'm3', 'm4']);
    expect(three.hasEarlier).toBe(true);

    const all = await waitForEmission(liveTail(db, 'c1', 5), () => true);
    expect(all.messages.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(all.hasEarlier).toBe(false);

    expect(await waitForEmission(liveTail(db, 'empty', 5), () => true)).toEqual({ messages: [], hasEarlier: false });
  });

  it('liveTail follows a streaming write to the newest message', async () => {
    const [, second] = await storage.appendMessages('c1', [userDraft('c1', 'u'), userDraft('c1', 'a')]);
    const live = liveTail(db, 'c1', 10);
    await waitForEmission(live, (tail) => tail.messages.length === 2);
    const streamed = waitForEmission(live, (tail) => tail.messages.at(-1)?.content === 'grown');
    await storage.putMessage({ ...second!, content: 'grown' });
    expect((await streamed).messages.map((m) => m.id)).toEqual(['u', 'a']);
  });

  it('liveTail follows appends, sliding the window forward', async () => {
    await storage.appendMessages('c1', ['m0', 'm1', 'm2'].map((id) => userDraft('c1', id)));
    const live = liveTail(db, 'c1', 2);
    expect((await waitForEmission(live, () => true)).messages.map((m) => m.id)).toEqual(['m1', 'm2']);
    const appended = waitForEmission(live, (tail) => tail.messages.at(-1)?.id === 'm3');
    await storage.appendMessages('c1', [userDraft('c1', 'm3')]);
    expect(await appended).toEqual({ messages: [expect.objectContaining({ id: 'm2' }), expect.objectContaining({ id: 'm3' })], hasEarlier: true });
  });

  it('a write to a 10,000-message conversation re-reads the tail, not the history', async () => {
    const history: Message[] = Array.from({ length: 10_000 }, (_, seq) => ({
      v: 1,
      id: `m${seq}`,
      conversationId: 'c1',
      seq,
      createdAt: seq,
      role: 'user',
      content: `message ${seq}`,
    }));
    await db.messages.bulkAdd(history);
    await db.conversations.update('c1', { nextSeq: history.length });
    const reads = await countMessageReads(db);

    const live = liveTail(db, 'c1', 50);
    const first = await waitForEmission(live, (tail) => tail.messages.length === 50);
    expect(first.messages[0]?.seq).toBe(9_950);
    expect(first.hasEarlier).toBe(true);

    const newest = history.at(-1)!;
    const streamed = waitForEmission(live, (tail) => tail.messages.at(-1)?.content === 'streamed');
    await storage.putMessage({ ...newest, content: 'streamed' });
    await streamed;
    // Two runs of the query (the first, and the one after the write), each at most limit + 1 rows.
    expect(reads.rows).toBeGreaterThan(0);
    expect(reads.rows).toBeLessThanOrEqual(2 * 51);

    // The control: reading the whole conversation is what the counter would see otherwise.
    reads.rows = 0;
    await waitForEmission(liveMessages(db, 'c1'), (list) => list.length === 10_000);
    expect(reads.rows).toBeGreaterThanOrEqual(10_000);
  }, 20_000);
});
