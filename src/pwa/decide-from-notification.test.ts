import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { decisionSettlement } from '../engine/decision-settlement.ts';
import type { DecidedBy } from '../engine/records/index.ts';
import type { McpServerRecord } from '../storage/records/mcp-server-record.ts';
import { makeConversation, makePausePoint } from '../engine/testing/make-records.ts';
import { ToolRegistry } from '../engine/tool-registry.ts';
import type { PausepointDb } from '../storage/db.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { decideFromNotification, SERVICE_WORKER_OWNER } from './decide-from-notification.ts';
import { decisionView } from '../engine/decision-view.ts';
import { viewHash } from '../engine/view-hash.ts';
import { verifyDeviceSignature } from '../identity/device-signature.ts';
import { deviceIdentity } from '../identity/identity-store.ts';

const BY_NOTIFICATION: DecidedBy = { tabId: SERVICE_WORKER_OWNER, deviceId: 'device-1', label: 'Chrome on Android (notification)' };
const BY_TAB: DecidedBy = { tabId: 'tab-1', deviceId: 'device-1', label: 'Chrome on Android' };
const fixed = { now: () => 5_000, uuid: () => 'm-1' };

describe('decideFromNotification', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));
  beforeEach(async () => {
    await db.conversations.put(makeConversation({ id: 'c1', state: { kind: 'paused', pending: 1 } }));
    await db.pausePoints.put(makePausePoint({ id: 'p1', conversationId: 'c1', origin: 'model', toolName: 'wait_for_approval', payload: null }));
  });

  it('Approve resolves the card with its decision message and leaves the conversation running for a tab to take over', async () => {
    const result = await decideFromNotification(db, 'p1', 'approve', BY_NOTIFICATION, fixed);

    expect(result.outcome).toBe('decided');
    expect(await db.pausePoints.get('p1')).toMatchObject({ status: 'resolved', resolution: 'approve', resolvedAt: 5_000, decidedBy: BY_NOTIFICATION });
    const messages = await db.messages.where('conversationId').equals('c1').toArray();
    expect(messages.map((m) => m.content)).toEqual(['Approval approval: approve']);
    expect((await db.conversations.get('c1'))?.state).toEqual({ kind: 'running', owner: SERVICE_WORKER_OWNER, since: 5_000 });
  });

  it('point 1: an action is bound to the view its notification showed — one made on a view since changed is refused, and decides nothing', async () => {
    const shown = (await db.pausePoints.get('p1'))!;
    const stale = viewHash(decisionView({ pause: { ...shown, title: 'Send the old invoice?' } }));
    expect(await decideFromNotification(db, 'p1', 'approve', BY_NOTIFICATION, { ...fixed, viewHash: stale })).toMatchObject({ outcome: 'refused' });
    expect(await db.pausePoints.get('p1')).toMatchObject({ status: 'pending' });
    const hash = viewHash(decisionView({ pause: shown }));
    expect((await decideFromNotification(db, 'p1', 'approve', BY_NOTIFICATION, { ...fixed, viewHash: hash })).outcome).toBe('decided');
    expect(await db.pausePoints.get('p1')).toMatchObject({ status: 'resolved', viewHash: hash });
  });

  it('the first decision wins: a second action, or one after a tab decided, changes nothing', async () => {
    await decideFromNotification(db, 'p1', 'approve', BY_NOTIFICATION, fixed);
    const second = await decideFromNotification(db, 'p1', 'decline', BY_NOTIFICATION, fixed);
    expect(second.outcome).toBe('already_decided');
    expect(await db.pausePoints.get('p1')).toMatchObject({ resolution: 'approve' });
    expect(await db.messages.count()).toBe(1);

    await db.pausePoints.put(makePausePoint({ id: 'p2', conversationId: 'c1', origin: 'model', createdAt: 6_000 }));
    // The card's own path, as the engine's decide takes it in a tab.
    const tab = { clock: { now: () => 6_000, sleep: () => Promise.resolve() }, ids: { uuid: () => 'm-2' }, tools: new ToolRegistry([]), owner: 'tab-1' };
    await new DexieStorage(db).settlePausePoint('p2', (pending) => decisionSettlement(tab, pending, { type: 'decline', reason: 'not now' }, BY_TAB, 6_000));
    const late = await decideFromNotification(db, 'p2', 'approve', BY_NOTIFICATION, fixed);
    expect(late).toMatchObject({ outcome: 'already_decided', pausePoint: { resolution: 'decline', decidedBy: BY_TAB } });
  });

  it('a card that needs input (a choice, a form) is not decided from a notification', async () => {
    await db.pausePoints.put(makePausePoint({ id: 'p3', conversationId: 'c1', kind: 'choice', options: ['A', 'B'], origin: 'model' }));
    expect(await decideFromNotification(db, 'p3', 'approve', BY_NOTIFICATION, fixed)).toMatchObject({ outcome: 'refused' });
    expect(await db.pausePoints.get('p3')).toMatchObject({ status: 'pending' });
  });

  it('a card past its expiry is expired, not decided', async () => {
    await db.pausePoints.put(makePausePoint({ id: 'p4', conversationId: 'c1', origin: 'model', expiresAt: 4_000 }));
    expect(await decideFromNotification(db, 'p4', 'approve', BY_NOTIFICATION, fixed)).toMatchObject({ outcome: 'expired' });
    expect(await db.pausePoints.get('p4')).toMatchObject({ status: 'expired', resolution: null });
  });

  it('expires a card past its time signed by this device, over the card as it stood, as a tab would', async () => {
    const card = makePausePoint({ id: 'p5', conversationId: 'c1', origin: 'model', expiresAt: 4_000 });
    await db.pausePoints.put(card);
    await decideFromNotification(db, 'p5', 'approve', BY_NOTIFICATION, fixed);
    const expired = await db.pausePoints.get('p5');
    const identity = await deviceIdentity(db);
    expect(expired?.deviceSignature).toMatchObject({
      key_id: identity.keyId,
      signed: { card_id: 'p5', view_hash: viewHash(decisionView({ pause: card })), status: 'expired', resolution: null, by: 'expiry', decided_at: new Date(5_000).toISOString(), expired_reason: 'timeout' },
    });
    expect(await verifyDeviceSignature(identity.publicKey, expired?.deviceSignature)).toBe(true);
  });

  it('never decides a card of a conversation another device runs: the app decides it through the sync server', async () => {
    await db.settings.put({ key: 'deviceId', value: 'device-1' });
    await db.conversations.update('c1', { ownerDevice: { id: 'laptop', name: 'Laptop' } });
    const result = await decideFromNotification(db, 'p1', 'approve', BY_NOTIFICATION, fixed);
    expect(result.outcome).toBe('elsewhere');
    expect(await db.pausePoints.get('p1')).toMatchObject({ status: 'pending' });
    expect(await db.messages.count()).toBe(0);
  });

  it('decides a card of a conversation this device runs, sync or not', async () => {
    await db.settings.put({ key: 'deviceId', value: 'device-1' });
    await db.conversations.update('c1', { ownerDevice: { id: 'device-1', name: 'Phone' } });
    expect((await decideFromNotification(db, 'p1', 'approve', BY_NOTIFICATION, fixed)).outcome).toBe('decided');
  });

  it('point 9: an Approve on a card whose call the notification cannot show whole, or whose tool changed, is refused and decides nothing', async () => {
    await db.pausePoints.put(makePausePoint({ id: 'p5', conversationId: 'c1', origin: 'gate', payload: { body: 'x'.repeat(400) } }));
    expect(await decideFromNotification(db, 'p5', 'approve', BY_NOTIFICATION, fixed)).toMatchObject({ outcome: 'refused' });
    expect(await db.pausePoints.get('p5')).toMatchObject({ status: 'pending' });

    const mcp = { serverId: 's1', serverUrl: 'https://tools.example.com/mcp', serverName: 'Tools', toolName: 'echo', definitionHash: 'h1' };
    const definition = { name: 'echo', inputSchema: { type: 'object' as const } };
    await db.mcpServers.put({
      id: 's1',
      tools: [{ definition, hash: 'h2', pinned: { hash: 'h1', definition, at: 0 }, enabled: true }],
    } as unknown as McpServerRecord);
    await db.pausePoints.put(makePausePoint({ id: 'p6', conversationId: 'c1', origin: 'gate', mcp, description: 'Echo it?', payload: { message: 'hi' } }));
    expect(await decideFromNotification(db, 'p6', 'approve', BY_NOTIFICATION, fixed)).toMatchObject({ outcome: 'refused' });
    expect(await db.pausePoints.get('p6')).toMatchObject({ status: 'pending' });

    // The same call of the tool as pinned, on its server switched on, is decided.
    await db.mcpServers.put({ id: 's1', enabled: true, tools: [{ definition, hash: 'h1', pinned: { hash: 'h1', definition, at: 0 }, enabled: true }] } as unknown as McpServerRecord);
    expect(await decideFromNotification(db, 'p6', 'approve', BY_NOTIFICATION, fixed)).toMatchObject({ outcome: 'decided' });
  });
});
