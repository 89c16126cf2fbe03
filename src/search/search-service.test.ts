import 'fake-indexeddb/auto';
import { afterEach, describe, expect, test } from 'vitest';
import type { Conversation, Message, PausePoint } from '../engine/records/index.ts';
import { PausepointDb } from '../storage/db.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { SearchService } from './search-service.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));
let service: SearchService | undefined;
afterEach(() => service?.close());

const conversation = (id: string, title: string, updatedAt: number): Conversation => ({
  v: 1,
  id,
  title,
  createdAt: 0,
  updatedAt,
  state: { kind: 'idle' },
  turns: 0,
  nextSeq: 0,
});
const user = (id: string, conversationId: string, seq: number, content: string): Message => ({ v: 1, id, conversationId, seq, createdAt: seq, role: 'user', content });
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
const card = (id: string, conversationId: string, title: string, description: string): PausePoint => ({
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
  createdAt: 3,
  origin: 'gate',
  toolCallId: 'call-2',
  toolName: 'send_email',
  expiresAt: null,
});

const found = async (query: string) => (await service!.search(query, 20)).results.map((r) => [r.conversationId, r.source]);

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

describe('SearchService', () => {
  test('builds from the stored records: titles, messages, tool results and cards, with a marked snippet', async () => {
    await db.conversations.bulkPut([conversation('a', 'Groceries', 1), conversation('b', 'Trip to Oslo', 2)]);
    await db.messages.bulkPut([user('m1', 'a', 0, 'buy oat milk'), toolResult('m2', 'b', 1, '{"train":"Bergen line, 07:25"}')]);
    await db.pausePoints.put(card('p1', 'b', 'Send an email', 'To Ana, about the quarterly figures'));
    service = new SearchService(db);
    expect(await found('oat')).toEqual([['a', { kind: 'message', messageId: 'm1' }]]);
    expect(await found('bergen')).toEqual([['b', { kind: 'message', messageId: 'm2' }]]);
    expect(await found('quarterly')).toEqual([['b', { kind: 'card', pausePointId: 'p1' }]]);
    expect(await found('oslo')).toEqual([['b', { kind: 'title' }]]);
    const [result] = (await service.search('milk', 20)).results;
    expect(result).toMatchObject({ title: 'Groceries', snippet: { text: 'buy oat milk', marks: [[8, 12]] } });
  });

  test('follows writes from another connection, as sync makes them, and the engine’s rename and delete', async () => {
    service = new SearchService(db);
    await service.warm();
    // Another connection to the same database: sync writes records straight into the tables.
    const other = new PausepointDb(db.name);
    await other.conversations.put(conversation('s', 'From the phone', 5));
    await other.messages.put(user('s1', 's', 0, 'remember the zeppelin tickets'));
    await eventually(async () => expect(await found('zeppelin')).toEqual([['s', { kind: 'message', messageId: 's1' }]]));

    const storage = new DexieStorage(db);
    await storage.updateConversation('s', (c) => ({ ...c, title: 'Airship trip', updatedAt: 6 }));
    expect(await found('airship')).toEqual([['s', { kind: 'title' }]]);
    expect(await found('phone')).toEqual([]);

    await storage.deleteConversation('s');
    expect(await found('zeppelin')).toEqual([]);
    expect(await found('airship')).toEqual([]);
    expect(service.size).toBe(0);
    other.close();
  });

  test('a search right after a write finds it (changes waiting are applied first)', async () => {
    service = new SearchService(db);
    await service.warm();
    await db.conversations.put(conversation('c', 'Chat', 1));
    await db.messages.put(user('c1', 'c', 0, 'first version'));
    await db.messages.put(user('c1', 'c', 0, 'second version'));
    expect(await found('second')).toEqual([['c', { kind: 'message', messageId: 'c1' }]]);
    expect(await found('first')).toEqual([]);
  });

  test('a cleared table rebuilds the index on next use', async () => {
    await db.conversations.put(conversation('c', 'Chat', 1));
    await db.messages.put(user('c1', 'c', 0, 'kept until cleared'));
    service = new SearchService(db);
    expect(await found('kept')).toHaveLength(1);
    await db.messages.clear();
    expect(await found('kept')).toEqual([]);
    expect(await found('chat')).toEqual([['c', { kind: 'title' }]]);
  });
});
