import 'fake-indexeddb/auto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Conversation, Message, PausePoint } from '../engine/records/index.ts';
import { MemoryLocks } from '../engine/testing/memory-locks.ts';
import { PausepointDb } from '../storage/db.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { IndexWriter } from './index-writer.ts';
import { shardEntries } from './term-shards.ts';
import { SEARCH_INDEX_LOCK, SearchService } from './search-service.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));
const services: SearchService[] = [];
const others: PausepointDb[] = [];
afterEach(() => {
  for (const s of services.splice(0)) s.close();
  for (const o of others.splice(0)) o.close();
  vi.restoreAllMocks();
});

let locks = new MemoryLocks();
/** A tab's search: its own connection to the database, the browser's locks shared with the other tabs. */
function tab(connection: PausepointDb = db): SearchService {
  const service = new SearchService(connection, locks);
  services.push(service);
  return service;
}
function otherConnection(): PausepointDb {
  const other = new PausepointDb(db.name);
  others.push(other);
  return other;
}

const conversation = (id: string, title: string, updatedAt: number, nextSeq = 0): Conversation => ({
  v: 1,
  id,
  title,
  createdAt: 0,
  updatedAt,
  state: { kind: 'idle' },
  turns: 0,
  nextSeq,
});
const user = (id: string, conversationId: string, seq: number, content: string): Message => ({ v: 1, id, conversationId, seq, createdAt: seq, role: 'user', content });
const answer = (id: string, conversationId: string, seq: number, content: string, status: 'streaming' | 'complete'): Message => ({
  v: 1,
  id,
  conversationId,
  seq,
  createdAt: seq,
  role: 'assistant',
  content,
  toolCalls: [],
  turnIndex: 0,
  status,
});
const toolResult = (id: string, conversationId: string, seq: number, content: string): Message => ({
  v: 1,
  id,
  conversationId,
  seq,
  createdAt: seq,
  role: 'tool',
  toolCallId: 'call-1',
  toolName: 'http_request',
  content,
  outcome: 'done',
});
const card = (id: string, conversationId: string, title: string, description: string, createdAt = 3): PausePoint => ({
  v: 1,
  id,
  conversationId,
  turnIndex: 0,
  title,
  description,
  options: null,
  payload: { to: 'ana@example.com', subject: 'Quarterly figures' },
  kind: 'approval',
  status: 'pending',
  resolution: null,
  resolvedAt: null,
  createdAt,
  origin: 'gate',
  toolCallId: 'call-2',
  toolName: 'send_email',
  expiresAt: null,
});

const found = async (service: SearchService, query: string) => (await service.search(query, 20)).results.map((r) => [r.conversationId, r.source]);
const ids = async (service: SearchService, query: string) => (await service.search(query, 20)).results.map((r) => r.conversationId);
const message = (messageId: string) => ({ kind: 'message' as const, messageId });

/** Waits for the service to see a write made elsewhere (it reads changes back soon after they are committed). */
async function eventually(check: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await check();
    } catch (error) {
      if (i > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The stored index as data, to compare one kept up by writes with one built from scratch (block ids are numbered by when they were made). */
async function storedIndex(of: PausepointDb) {
  const blocks = await of.searchBlocks.toArray();
  const place = new Map(blocks.map((b) => [b.id, `${b.conversationId}/${b.part}`]));
  const terms = (await of.searchTerms.toArray()).flatMap(shardEntries);
  return {
    terms: Object.fromEntries(terms.map(([term, postings]) => [term, [...postings].map((p) => `${place.get(Math.floor(p / 64))}/${p % 64}`).sort()])),
    blocks: blocks.map((b) => ({ at: `${b.conversationId}/${b.part}`, docs: b.docs })).sort((a, b) => (a.at < b.at ? -1 : 1)),
  };
}

describe('SearchService', () => {
  test('builds from the stored records: titles, messages, tool results and cards, with a marked snippet', async () => {
    await db.conversations.bulkPut([conversation('a', 'Groceries', 1), conversation('b', 'Trip to Oslo', 2)]);
    await db.messages.bulkPut([user('m1', 'a', 0, 'buy oat milk'), toolResult('m2', 'b', 1, '{"train":"Bergen line, 07:25"}')]);
    await db.pausePoints.put(card('p1', 'b', 'Send an email', 'To Ana, about the quarterly figures'));
    const service = tab();
    expect(await found(service, 'oat')).toEqual([['a', message('m1')]]);
    expect(await found(service, 'bergen')).toEqual([['b', message('m2')]]);
    expect(await found(service, 'quarterly')).toEqual([['b', { kind: 'card', pausePointId: 'p1' }]]);
    expect(await found(service, 'oslo')).toEqual([['b', { kind: 'title' }]]);
    const [result] = (await service.search('milk', 20)).results;
    expect(result).toMatchObject({ title: 'Groceries', snippet: { text: 'buy oat milk', marks: [[8, 12]] } });
  });

  test('newest first, one result per conversation at its newest matching message, and how many match in all', async () => {
    await db.conversations.bulkPut([conversation('old', 'Groceries', 1), conversation('new', 'Trip to Oslo', 5)]);
    await db.messages.bulkPut([user('m1', 'old', 0, 'buy oat milk and bread'), user('m2', 'old', 1, 'more oat milk please')]);
    await db.pausePoints.put(card('p1', 'new', 'Book the train', 'Two seats, oat milk on board'));
    const service = tab();
    expect(await ids(service, 'oat milk')).toEqual(['new', 'old']);
    expect(await found(service, 'oat milk')).toEqual([
      ['new', { kind: 'card', pausePointId: 'p1' }],
      ['old', message('m2')],
    ]);
    expect(await found(service, 'bread')).toEqual([['old', message('m1')]]);
    expect(await service.search('oat', 1)).toMatchObject({ total: 2, results: [{ conversationId: 'new' }] });
  });

  test('every word must be in one message; the last one may be a prefix being typed', async () => {
    await db.conversations.put(conversation('c', 'Chat', 1));
    await db.messages.bulkPut([user('m1', 'c', 0, 'invoice for March'), user('m2', 'c', 1, 'the receipt')]);
    const service = tab();
    expect(await ids(service, 'invoice receipt')).toEqual([]);
    expect(await ids(service, 'invoice Mar')).toEqual(['c']);
    expect(await ids(service, 'inv march')).toEqual([]);
    // One letter is too short a prefix: it would match nearly everything.
    expect(await ids(service, 'invoice f')).toEqual([]);
  });

  test('a title matches by its words and mid-word, as the sidebar filter did', async () => {
    await db.conversations.put(conversation('c', 'Trip to Oslo', 1));
    const service = tab();
    expect(await found(service, 'slo')).toEqual([['c', { kind: 'title' }]]);
    expect(await ids(service, 'TO OS')).toEqual(['c']);
    expect(await ids(service, 'oslo trip')).toEqual(['c']);
  });

  test('folds case and diacritics, and splits words on Unicode boundaries', async () => {
    await db.conversations.put(conversation('c', 'Chat', 1));
    await db.messages.bulkPut([
      user('m1', 'c', 0, 'Le CAFÉ de Zoë, straße, ﬁle, ＡＢＣ'),
      user('ja', 'c', 1, '東京タワーに行きました。'),
      user('fr', 'c', 2, "Cet été, l'été dernier."),
      user('el', 'c', 3, 'ΟΔΥΣΣΕΥΣ (Odysseus)'),
      user('th', 'c', 4, 'ภาษาไทยง่ายนิดเดียว'),
      user('num', 'c', 5, 'Total: 1,000.50 don’t panic'),
    ]);
    const service = tab();
    for (const query of ['café', 'cafe', 'CAFE', 'zoe', 'ZOË', 'strasse', 'file', 'abc']) expect(await found(service, query), query).toEqual([['c', message('m1')]]);
    expect(await found(service, '東京タワー')).toEqual([['c', message('ja')]]);
    expect(await found(service, "l'ete")).toEqual([['c', message('fr')]]);
    expect(await found(service, 'οδυσσευς')).toEqual([['c', message('el')]]);
    expect(await found(service, 'ภาษา')).toEqual([['c', message('th')]]);
    expect(await found(service, '1,000.50')).toEqual([['c', message('num')]]);
    expect(await found(service, 'dont')).toEqual([]);
    expect(await found(service, '!!! ,,,')).toEqual([]);
  });

  test('follows writes from another connection, as sync makes them, and the engine’s rename and delete', async () => {
    const service = tab();
    await service.warm();
    // Another connection to the same database: sync writes records straight into the tables.
    const other = otherConnection();
    await other.conversations.put(conversation('s', 'From the phone', 5));
    await other.messages.put(user('s1', 's', 0, 'remember the zeppelin tickets'));
    await eventually(async () => expect(await found(service, 'zeppelin')).toEqual([['s', message('s1')]]));

    const storage = new DexieStorage(db);
    await storage.updateConversation('s', (c) => ({ ...c, title: 'Airship trip', updatedAt: 6 }));
    expect(await found(service, 'airship')).toEqual([['s', { kind: 'title' }]]);
    expect(await found(service, 'phone')).toEqual([]);

    await storage.deleteConversation('s');
    expect(await found(service, 'zeppelin')).toEqual([]);
    expect(await found(service, 'airship')).toEqual([]);
    expect(await db.searchTerms.count()).toBe(0);
    expect(await db.searchCovered.count()).toBe(0);
  });

  test('a search right after a write finds it; a streamed answer is indexed once it ends, not on every chunk', async () => {
    const service = tab();
    await service.warm();
    await db.conversations.put(conversation('c', 'Chat', 1));
    await db.messages.put(user('c1', 'c', 0, 'first version'));
    await db.messages.put(user('c1', 'c', 0, 'second version'));
    expect(await found(service, 'second')).toEqual([['c', message('c1')]]);
    expect(await found(service, 'first')).toEqual([]);

    const write = vi.spyOn(IndexWriter.prototype, 'write');
    for (const text of ['The', 'The answer', 'The answer is forty']) {
      await db.messages.put(answer('c2', 'c', 1, text, 'streaming'));
      expect(await found(service, 'answer')).toEqual([]);
    }
    expect(write).not.toHaveBeenCalled();
    await db.messages.put(answer('c2', 'c', 1, 'The answer is forty-two', 'complete'));
    expect(await found(service, 'forty')).toEqual([['c', message('c2')]]);
  });

  test('a message synced before its conversation is found once the conversation arrives', async () => {
    const service = tab();
    await service.warm();
    await db.messages.put(user('m1', 'later', 0, 'early bird'));
    expect(await ids(service, 'early')).toEqual([]);
    await db.conversations.put(conversation('later', 'Arrived', 3, 1));
    expect(await ids(service, 'early')).toEqual(['later']);
  });

  test('the stored index survives a reload: a new tab reads it without building, and it matches a rebuild', async () => {
    await db.conversations.bulkPut([conversation('a', 'Groceries', 1, 2), conversation('b', 'Trip to Oslo', 2, 1)]);
    await db.messages.bulkPut([user('m1', 'a', 0, 'buy oat milk'), user('m2', 'a', 1, 'and bread'), user('m3', 'b', 0, 'the Bergen line')]);
    const first = tab();
    await first.warm();
    // Kept up by writes: a card, a new message, a message replaced, a conversation gone.
    await db.pausePoints.put(card('p1', 'b', 'Book the train', 'Two seats to Bergen'));
    await db.messages.put(user('m4', 'b', 1, 'window seats please'));
    await db.messages.put(user('m2', 'a', 1, 'and butter'));
    await db.conversations.put(conversation('z', 'Gone soon', 3, 1));
    await db.messages.put(user('m5', 'z', 0, 'temporary zebra'));
    await new DexieStorage(db).deleteConversation('z');
    expect(await ids(first, 'butter')).toEqual(['a']);
    first.close();

    const build = vi.spyOn(IndexWriter.prototype, 'start');
    const reloaded = tab(otherConnection());
    expect(await found(reloaded, 'window')).toEqual([['b', message('m4')]]);
    expect(await found(reloaded, 'bergen')).toEqual([['b', message('m3')]]);
    expect(await ids(reloaded, 'bread')).toEqual([]);
    expect(await ids(reloaded, 'zebra')).toEqual([]);
    expect(build).not.toHaveBeenCalled();

    const kept = await storedIndex(db);
    await new IndexWriter(db).start();
    expect(await ids(tab(otherConnection()), 'butter')).toEqual(['a']);
    expect(await storedIndex(db)).toEqual(kept);
  });

  test('posting lists in shards: words across many shards are found whole and by prefix, kept up by writes (shards split and emptied), and match a rebuild', async () => {
    // 1,500 words in one message: three shards of SHARD_TERMS at least, built at once.
    const word = (i: number) => `w${String(i).padStart(4, '0')}`;
    const words = (from: number, to: number, step = 1) => Array.from({ length: Math.ceil((to - from) / step) }, (_, k) => word(from + k * step)).join(' ');
    await db.conversations.bulkPut([conversation('a', 'Glossary', 1, 1), conversation('b', 'Other', 2, 1)]);
    await db.messages.bulkPut([user('m1', 'a', 0, words(0, 3000, 2)), user('m2', 'b', 0, 'w0000 only')]);
    const first = tab();
    await first.warm();
    expect(await db.searchTerms.count()).toBe(3);
    expect(await ids(first, 'w0000')).toEqual(['b', 'a']);
    expect(await ids(first, 'w2998')).toEqual(['a']);
    expect(await ids(first, 'w1001')).toEqual([]);
    expect(await ids(first, 'only w2998')).toEqual([]);
    // The odd words fall between the shards' keys: each shard grows past its bounds and splits.
    await db.messages.put(user('m3', 'b', 1, words(1, 3000, 2)));
    expect(await ids(first, 'w1001')).toEqual(['b']);
    expect(await ids(first, 'w2999')).toEqual(['b']);
    // A prefix whose terms lie in several shards.
    expect((await first.search('w1', 20)).total).toBe(2);
    expect(await found(first, 'only w00')).toEqual([['b', message('m2')]]);
    // Words gone from a message leave their lists; a shard left empty goes.
    const before = await db.searchTerms.count();
    await db.messages.put(user('m3', 'b', 1, 'short now'));
    await db.messages.put(user('m1', 'a', 0, 'short too'));
    expect(await ids(first, 'w1001')).toEqual([]);
    expect(await ids(first, 'w0002')).toEqual([]);
    expect(await ids(first, 'short')).toEqual(['b', 'a']);
    expect(await db.searchTerms.count()).toBeLessThan(before);

    const kept = await storedIndex(db);
    await new IndexWriter(db).start();
    expect(await ids(tab(otherConnection()), 'short')).toEqual(['b', 'a']);
    expect(await storedIndex(db)).toEqual(kept);
  });

  test('conversations written while no tab was indexing are caught up on the next tab’s first search', async () => {
    await db.conversations.put(conversation('a', 'Groceries', 1, 1));
    await db.messages.put(user('m1', 'a', 0, 'buy oat milk'));
    const first = tab();
    await first.warm();
    first.close();
    // Written with no search running, as a tab that never searched writes.
    await db.messages.put(user('m2', 'a', 1, 'and plums'));
    await db.conversations.put(conversation('a', 'Groceries', 2, 2));
    await db.conversations.put(conversation('b', 'New one', 3, 1));
    await db.messages.put(user('m3', 'b', 0, 'some plums too'));
    expect(await ids(tab(otherConnection()), 'plums')).toEqual(['b', 'a']);
  });

  test('two tabs never build at once: the second waits for the lock, then reads what the first built', async () => {
    await db.conversations.put(conversation('a', 'Groceries', 1, 1));
    await db.messages.put(user('m1', 'a', 0, 'buy oat milk'));
    locks = new MemoryLocks();
    const building: boolean[] = [];
    const start = IndexWriter.prototype.start;
    vi.spyOn(IndexWriter.prototype, 'start').mockImplementation(function (this: IndexWriter) {
      building.push(locks.isHeld(SEARCH_INDEX_LOCK));
      return start.call(this);
    });
    const [one, two] = [tab(), tab(otherConnection())];
    const answers = await Promise.all([ids(one, 'milk'), ids(two, 'milk')]);
    expect(answers).toEqual([['a'], ['a']]);
    expect(building).toEqual([true]);
  });

  test('a bulk write (Dexie names the whole table) is caught up on next use', async () => {
    const service = tab();
    await service.warm();
    await db.conversations.bulkPut(Array.from({ length: 60 }, (_, i) => conversation(`c${i}`, `Chat ${i}`, i, 1)));
    await db.messages.bulkPut(Array.from({ length: 60 }, (_, i) => user(`m${i}`, `c${i}`, 0, `bulk word${i}`)));
    expect((await service.search('bulk', 5)).total).toBe(60);
    expect(await ids(service, 'word17')).toEqual(['c17']);
    await db.messages.clear();
    await db.conversations.clear();
    expect((await service.search('bulk', 5)).total).toBe(0);
    expect(await db.searchTerms.count()).toBe(0);
  });
});
