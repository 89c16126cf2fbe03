import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCouch, type FakeCouch } from '../../tests/fake-couch/index.ts';
import { makeConversation, makePausePoint } from '../engine/testing/make-records.ts';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { CouchClient } from './couch/couch-client.ts';
import { deriveSyncKeys, newDataKey, type SyncKeys } from './crypto/data-key.ts';
import { claimDecision } from './decision-claims.ts';
import { readPage } from './follow-changes.ts';
import { sealedForTests } from './testing/one-signer.ts';
import type { SyncContext } from './sync-context.ts';
import type { SyncDocument } from './sync-document.ts';

/**
 * What the server can do to a device besides answering: replay old revisions,
 * hold documents that do not open, take a create on a quorum later and keep a
 * conflict. Against fake-couch, for what pouchdb-server cannot do.
 */
let couch: FakeCouch;
let keys: SyncKeys;
let db: PausepointDb;
let database = 0;
beforeAll(async () => {
  couch = await startFakeCouch();
  keys = await deriveSyncKeys(newDataKey());
});
afterAll(() => couch.close());
useTestDb((fresh) => (db = fresh));

const LAPTOP = { id: 'laptop', name: 'Laptop' };

async function phone(fetcher?: typeof fetch): Promise<{ ctx: SyncContext; name: string }> {
  const name = `pausepoint-${++database}`;
  couch.createDatabase(name);
  const client = new CouchClient({ serverUrl: couch.url, database: name, username: 'ada', password: 'pw', ...(fetcher ? { fetch: fetcher } : {}) });
  return { name, ctx: { db, client, ...(await sealedForTests(keys, name)), device: { id: 'phone', name: 'Phone' }, since: 0, epoch: 1, now: Date.now } };
}

async function put(ctx: SyncContext, doc: SyncDocument, rev?: string): Promise<string> {
  const sealed = await ctx.sealed.seal(doc);
  return (await ctx.client.putDocument(sealed._id, rev, { e: sealed.e })).rev;
}

const conversation = makeConversation({ id: 'c1', ownerDevice: LAPTOP, state: { kind: 'paused', pending: 1 } });
const pending = makePausePoint({ id: 'p1', conversationId: 'c1' });
const resolved = { ...pending, status: 'resolved' as const, resolution: 'approve', resolvedAt: 5, decidedBy: { tabId: 't', deviceId: 'laptop', label: 'Laptop' } };

describe('what the server sends back', () => {
  it('an old revision served again is ignored: the card stays decided', async () => {
    const { ctx, name } = await phone();
    await put(ctx, { v: 1, kind: 'conversation', id: 'c1', n: 1, from: 'laptop', record: conversation });
    const first = await put(ctx, { v: 1, kind: 'pausePoint', id: 'p1', n: 1, from: 'laptop', record: pending });
    await put(ctx, { v: 1, kind: 'pausePoint', id: 'p1', n: 2, from: 'laptop', record: resolved }, first);
    const page = await readPage(ctx, '0', 'normal');
    expect((await db.pausePoints.get('p1'))?.status).toBe('resolved');

    couch.replayRevision(name, await ctx.sealed.idOf('pausePoint', 'p1'), first);
    const replayed = await readPage(ctx, page.lastSeq, 'normal');
    expect(replayed.count).toBe(1);
    expect(replayed.applied.ignored).toBe(1);
    expect((await db.pausePoints.get('p1'))?.status).toBe('resolved');
  });

  it('documents that do not open are skipped and counted, never applied', async () => {
    const { ctx } = await phone();
    const { sealed: other } = await sealedForTests(await deriveSyncKeys(newDataKey()), ctx.sealed.database);
    const foreign = await other.seal({ v: 1, kind: 'conversation', id: 'c9', n: 1, from: 'laptop', record: { ...conversation, id: 'c9' } });
    await ctx.client.createDocument(foreign._id, { e: foreign.e });
    await ctx.client.createDocument('0123abcd', { e: { v: 1, iv: 'AAAAAAAAAAAAAAAA', ct: 'AAAAAAAAAAAAAAAAAAAAAAAA' } });
    // A sound envelope moved to another document's id: bound to its own id, it does not open here.
    const moved = await ctx.sealed.seal({ v: 1, kind: 'conversation', id: 'c8', n: 1, from: 'laptop', record: { ...conversation, id: 'c8' } });
    await ctx.client.createDocument(`${moved._id.slice(0, -1)}${moved._id.endsWith('0') ? '1' : '0'}`, { e: moved.e });
    const page = await readPage(ctx, '0', 'normal');
    expect(page.unreadable).toBe(3);
    expect(await db.conversations.count()).toBe(0);
  });

  it('refuses what breaks who writes what: another device’s document, a conversation’s records from another writer', async () => {
    const { ctx } = await phone();
    await put(ctx, { v: 1, kind: 'conversation', id: 'c1', n: 1, from: 'laptop', record: conversation });
    await put(ctx, { v: 1, kind: 'device', id: 'laptop', n: 1, from: 'tablet', record: { v: 1, id: 'laptop', name: 'Not the laptop', lastSeenAt: 1 } });
    await put(ctx, { v: 1, kind: 'pausePoint', id: 'p1', n: 1, from: 'tablet', record: pending });
    await put(ctx, { v: 1, kind: 'conversation', id: 'c2', n: 1, from: 'tablet', record: { ...conversation, id: 'c2' } });
    const page = await readPage(ctx, '0', 'normal');
    expect(page.applied.refused).toBe(3);
    expect(await db.syncDevices.count()).toBe(0);
    expect(await db.pausePoints.count()).toBe(0);
    expect((await db.conversations.toArray()).map((c) => c.id)).toEqual(['c1']);
  });

  it('never takes another device’s copy of a conversation this device runs', async () => {
    const { ctx } = await phone();
    await db.conversations.put(makeConversation({ id: 'mine', title: 'Mine', ownerDevice: { id: 'phone', name: 'Phone' } }));
    await put(ctx, { v: 1, kind: 'conversation', id: 'mine', n: 1, from: 'laptop', record: { ...conversation, id: 'mine', title: 'Taken over' } });
    await readPage(ctx, '0', 'normal');
    expect((await db.conversations.get('mine'))?.title).toBe('Mine');
  });
});

describe('a claim on a server that is not one node', () => {
  /** A phone whose server, between the create's answer and the read-back, holds the tablet's claim too as a conflict (`wins`: the server picks it). */
  async function phoneWithTabletConflict(wins: boolean): Promise<{ ctx: SyncContext; name: string }> {
    const made: { setup?: { ctx: SyncContext; name: string } } = {};
    const fetcher: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const setup = made.setup;
      if (setup && init?.method === 'GET' && url.includes('conflicts=true')) {
        const id = decodeURIComponent(new URL(url).pathname.split('/').at(-1)!);
        const theirs = await setup.ctx.sealed.seal({ v: 1, kind: 'decision', id: 'p1', n: 1, from: 'tablet', record: { pausePointId: 'p1', conversationId: 'c1', decision: { type: 'decline' }, decidedBy: TABLET } });
        couch.storeConflict(setup.name, id, { e: theirs.e }, { wins });
      }
      return fetch(input, init);
    };
    return (made.setup = await phone(fetcher));
  }
  const PHONE = { tabId: 't1', deviceId: 'phone', label: 'Phone' };
  const TABLET = { tabId: 't2', deviceId: 'tablet', label: 'Tablet' };

  it('a create answered 202 whose read-back shows another device’s claim winning is lost, not won', async () => {
    const { ctx } = await phoneWithTabletConflict(true);
    couch.answerCreatesWith202();
    const outcome = await claimDecision(ctx, pending, { type: 'approve' }, PHONE);
    expect(outcome).toEqual({ outcome: 'lost', decision: { type: 'decline' }, decidedBy: TABLET });
    expect((await db.remoteDecisions.get('p1'))?.state).toBe('lost');
  });

  it('a create answered 201 whose read-back shows another device’s claim winning is lost, not won', async () => {
    const { ctx } = await phoneWithTabletConflict(true);
    const outcome = await claimDecision(ctx, pending, { type: 'approve' }, PHONE);
    expect(outcome).toEqual({ outcome: 'lost', decision: { type: 'decline' }, decidedBy: TABLET });
    expect((await db.remoteDecisions.get('p1'))?.state).toBe('lost');
  });

  it('a create answered 201 whose own revision reads back with a conflict beside it is not won', async () => {
    const { ctx } = await phoneWithTabletConflict(false);
    const outcome = await claimDecision(ctx, pending, { type: 'approve' }, PHONE);
    expect(outcome.outcome).toBe('lost');
  });

  it('a create answered 202 that reads back alone is won', async () => {
    const { ctx } = await phone();
    couch.answerCreatesWith202();
    expect(await claimDecision(ctx, pending, { type: 'approve' }, { tabId: 't1', deviceId: 'phone', label: 'Phone' })).toEqual({ outcome: 'won' });
  });
});
