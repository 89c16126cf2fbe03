import 'fake-indexeddb/auto';
import Dexie, { RangeSet, type ObservabilitySet } from 'dexie';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../engine/records/index.ts';
import { makeConversation, makePausePoint } from '../engine/testing/make-records.ts';
import { MemoryLocks } from '../engine/testing/memory-locks.ts';
import { SearchService } from '../search/search-service.ts';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { applyDocuments, type Incoming } from './apply-documents.ts';
import { CouchClient } from './couch/couch-client.ts';
import { deriveSyncKeys, newDataKey, type SyncKeys } from './crypto/data-key.ts';
import { sealedForTests } from './testing/one-signer.ts';
import type { SyncContext } from './sync-context.ts';
import type { SyncDocument } from './sync-document.ts';

let db: PausepointDb;
let keys: SyncKeys;
let signed: Awaited<ReturnType<typeof sealedForTests>>;
beforeAll(async () => {
  keys = await deriveSyncKeys(newDataKey());
  signed = await sealedForTests(keys, 'pausepoint');
});
useTestDb((fresh) => (db = fresh));

const LAPTOP = { id: 'laptop', name: 'Laptop' };

function phone(): SyncContext {
  // applyDocuments never reaches the server: the client is there for the type, pointed nowhere.
  const client = new CouchClient({ serverUrl: 'http://127.0.0.1:9', database: 'pausepoint', username: '', password: '' });
  return { db, client, ...signed, device: { id: 'phone', name: 'Phone' }, since: 0, epoch: 1, now: Date.now };
}

const incoming = (doc: SyncDocument): Incoming => ({ doc, docId: `${doc.kind}-${doc.id}`, rev: '1-a' });

/** A page of a first sync: `conversations` conversations of the laptop's, `messages` messages each. */
function historyPage(conversations: number, messages: number): Incoming[] {
  const page: Incoming[] = [];
  for (let c = 0; c < conversations; c++) {
    const id = `c${c}`;
    page.push(incoming({ v: 1, kind: 'conversation', id, n: 1, from: 'laptop', record: makeConversation({ id, ownerDevice: LAPTOP }) }));
    for (let seq = 0; seq < messages; seq++) {
      const message: Message = { v: 1, id: `${id}-m${seq}`, conversationId: id, seq, createdAt: 1_000 + seq, role: 'user', content: `message ${seq}` };
      page.push(incoming({ v: 1, kind: 'message', id: message.id, n: 1, from: 'laptop', record: message }));
    }
  }
  return page;
}

/** How many ranges a mutation event names, over all its parts. */
function rangesIn(parts: ObservabilitySet): number {
  return Object.values(parts).reduce((sum, tree) => sum + [...new RangeSet().add(tree)].length, 0);
}

describe('applying a page of the changes feed', () => {
  it('writes it whole: every conversation and message, a pending card reported once', async () => {
    const card = makePausePoint({ id: 'p1', conversationId: 'c0' });
    const applied = await applyDocuments(phone(), [...historyPage(3, 60), incoming({ v: 1, kind: 'pausePoint', id: 'p1', n: 1, from: 'laptop', record: card })]);
    expect(applied.applied).toBe(3 + 180 + 1);
    expect(await db.conversations.count()).toBe(3);
    expect(await db.messages.where('[conversationId+seq]').between(['c2', 0], ['c2', Infinity]).count()).toBe(60);
    expect(applied.newCards.map((p) => p.id)).toEqual(['p1']);
    expect(await db.syncDocs.count()).toBe(3 + 180 + 1);
  });

  it('names each table to live queries once, not each record', async () => {
    // Dexie's liveQuery keeps every key a write names, in each subscription whose
    // own reads it misses, until that subscription runs again: one range per
    // record made a first sync of 20,000 messages leave ~460k ranges in the page's
    // live queries (29.6 MB) and ~126k in the worker's. A page must name few.
    const events: ObservabilitySet[] = [];
    const listen = (parts: ObservabilitySet) => void events.push(parts);
    Dexie.on('storagemutated', listen);
    try {
      await applyDocuments(phone(), historyPage(10, 50));
    } finally {
      Dexie.on('storagemutated').unsubscribe(listen);
    }
    const named = events.reduce((sum, parts) => sum + rangesIn(parts), 0);
    expect(events.length).toBeGreaterThan(0);
    // 510 records over conversations, messages and syncDocs (and their indexes): a handful of ranges each, not one per record.
    expect(named).toBeLessThan(60);
  });

  it('a page too large to name its keys still reaches a conversation search built before it', async () => {
    const search = new SearchService(db, new MemoryLocks());
    try {
      await search.warm();
      expect((await search.search('message', 10)).total).toBe(0);
      // 50 messages each: Dexie names the messages table whole, so the index catches up on its next use.
      await applyDocuments(phone(), historyPage(2, 50));
      const { results, total } = await search.search('message', 10);
      expect(total).toBe(2);
      expect(results.map((r) => r.conversationId).sort()).toEqual(['c0', 'c1']);
    } finally {
      search.close();
    }
  });
});
