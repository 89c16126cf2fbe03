import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeConversation } from '../engine/testing/make-records.ts';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { applyDocuments, type Incoming } from './apply-documents.ts';
import { claimsFirst } from './claims-first.ts';
import { CouchClient } from './couch/couch-client.ts';
import { deriveSyncKeys, newDataKey } from './crypto/data-key.ts';
import { sealedForTests } from './testing/one-signer.ts';
import type { SyncContext } from './sync-context.ts';
import { syncKey, type SyncDocument } from './sync-document.ts';

let db: PausepointDb;
let signed: Awaited<ReturnType<typeof sealedForTests>>;
beforeAll(async () => {
  signed = await sealedForTests(await deriveSyncKeys(newDataKey()), 'pausepoint');
});
useTestDb((fresh) => (db = fresh));

const LAPTOP = { id: 'laptop', name: 'Laptop' };
const PHONE = { id: 'phone', name: 'Phone' };

function laptop(): SyncContext {
  // Neither function reaches the server: the client is there for the type, pointed nowhere.
  const client = new CouchClient({ serverUrl: 'http://127.0.0.1:9', database: 'pausepoint', username: '', password: '' });
  return { db, client, ...signed, device: LAPTOP, since: 0, epoch: 1, now: Date.now };
}

function claim(id: string, conversationId: string, from: string, decidedOn = from, n = 1): Incoming {
  const doc: SyncDocument = {
    v: 1,
    kind: 'decision',
    id,
    n,
    from,
    record: { pausePointId: id, conversationId, decision: { type: 'approve' }, decidedBy: { tabId: 'tab-1', deviceId: decidedOn, label: decidedOn } },
  };
  return { doc, docId: `decision-${id}`, rev: '1-a' };
}

describe('claims applied before the rest of their page', () => {
  it('finds exactly the claims applyDocuments reports: another device’s, for a conversation this device runs, not old, not forged, not a removed device’s', async () => {
    await db.conversations.bulkPut([makeConversation({ id: 'here', ownerDevice: LAPTOP }), makeConversation({ id: 'unowned' }), makeConversation({ id: 'elsewhere', ownerDevice: PHONE })]);
    await db.syncDevices.put({ v: 1, id: 'gone', name: 'Old phone', lastSeenAt: 0, removed: true });
    await db.syncDocs.put({ key: syncKey('decision', 'seen'), docId: 'decision-seen', rev: '1-a', n: 1, hash: 'x' });
    const page = [
      claim('p1', 'here', 'phone'),
      claim('p2', 'unowned', 'phone'),
      claim('p3', 'elsewhere', 'phone'),
      claim('p4', 'here', 'laptop'),
      claim('p5', 'here', 'phone', 'tablet'),
      claim('p6', 'here', 'gone'),
      claim('seen', 'here', 'phone'),
      claim('p7', 'missing', 'phone'),
    ];
    const first = await claimsFirst(laptop(), page);
    expect(first.map((c) => c.pausePointId)).toEqual(['p1', 'p2']);
    // Read before the page's transaction, which then reports the same ones.
    expect((await applyDocuments(laptop(), page)).claims).toEqual(first);
  });

  it('reads nothing for a page without claims', async () => {
    expect(await claimsFirst(laptop(), [])).toEqual([]);
  });
});
