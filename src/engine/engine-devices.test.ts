import { describe, expect, it } from 'vitest';
import { CallerError } from './errors.ts';
import type { DecidedBy, OwnerDevice } from './records/index.ts';
import { harness, pending, say, state } from './testing/harness.ts';
import { makeConversation, makePausePoint } from './testing/make-records.ts';
import { MemoryClaimServer, MemoryDevices } from './testing/memory-devices.ts';
import { MemoryStorage } from './testing/memory-storage.ts';

const laptop: OwnerDevice = { id: 'laptop', name: 'Chromium on Linux' };
const phone: OwnerDevice = { id: 'phone', name: 'Chrome on Android' };
const on = (device: OwnerDevice, tabId = 'tab-1'): DecidedBy => ({ tabId, deviceId: device.id, label: device.name });
const bigTransfer = { calls: [{ name: 'transfer', args: { amount: 500, to: 'Ada' } }] };

/** The laptop runs a conversation whose one transfer waits for a card; both devices share one claim server. */
async function pausedOnLaptop() {
  const server = new MemoryClaimServer();
  const devices = new MemoryDevices(server, laptop);
  const h = harness([bigTransfer, { text: 'Done.' }], { devices });
  const id = await say(h, null, 'pay Ada');
  const [card] = await pending(h, id);
  return { h, server, devices, id, card: card! };
}

/** The phone's copy of the laptop's paused conversation, as sync would have written it. */
async function phoneMirror(server: MemoryClaimServer, conversationId: string, pausePointId: string) {
  const storage = new MemoryStorage();
  await storage.putConversation(makeConversation({ id: conversationId, ownerDevice: laptop, state: { kind: 'paused', pending: 1 } }));
  await storage.createPausePoint(makePausePoint({ id: pausePointId, conversationId, origin: 'gate', toolName: 'transfer', toolCallId: 'call-1' }));
  const devices = new MemoryDevices(server, phone);
  const h = harness([{ text: 'the phone must never ask the model' }], { storage, devices });
  return { h, storage, devices };
}

describe('decisions across devices', () => {
  it('records the device that starts a conversation as its owner', async () => {
    const { h, id } = await pausedOnLaptop();
    expect((await h.storage.getConversation(id))?.ownerDevice).toEqual(laptop);
  });

  it('claims the owner’s own decision on the server first, then applies it once', async () => {
    const { h, server, id, card } = await pausedOnLaptop();
    expect(await h.engine.decide(card.id, { type: 'approve' }, on(laptop))).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();
    expect(server.claims.get(card.id)?.decidedBy).toEqual(on(laptop));
    expect(h.executions).toEqual([{ amount: 500, to: 'Ada' }]);
    expect(h.model.requests).toHaveLength(2);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('applies the other device’s decision when the server took it first, and says who decided', async () => {
    const { h, server, id, card } = await pausedOnLaptop();
    server.claims.set(card.id, { decision: { type: 'decline', reason: 'not today' }, decidedBy: on(phone) });
    const result = await h.engine.decide(card.id, { type: 'approve' }, on(laptop));
    await h.engine.whenIdle();
    expect(result).toEqual({ outcome: 'already_decided', status: 'resolved', decidedBy: on(phone) });
    expect(await h.storage.getPausePoint(card.id)).toMatchObject({ status: 'resolved', resolution: 'decline', reason: 'not today', decidedBy: on(phone) });
    expect(h.executions).toEqual([]);
    expect(h.model.requests).toHaveLength(2);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('continues once when a claimed decision arrives by sync and the owner presses too', async () => {
    const { h, server, card } = await pausedOnLaptop();
    server.claims.set(card.id, { decision: { type: 'approve' }, decidedBy: { ...on(phone), via: 'sync' } });
    const [arrived, pressed] = await Promise.all([
      h.engine.applyClaimed(card.id, { type: 'approve' }, { ...on(phone), via: 'sync' }),
      h.engine.decide(card.id, { type: 'approve' }, on(laptop)),
    ]);
    await h.engine.whenIdle();
    expect([arrived.outcome, pressed.outcome].sort()).toEqual(['already_decided', 'decided']);
    expect(h.executions).toHaveLength(1);
    expect(h.model.requests).toHaveLength(2);
    expect((await h.storage.getPausePoint(card.id))?.decidedBy).toEqual({ ...on(phone), via: 'sync' });
  });

  it('lets another device claim a card without applying it or running the conversation', async () => {
    const { server, id, card } = await pausedOnLaptop();
    const mirror = await phoneMirror(server, id, card.id);
    expect(await mirror.h.engine.decide(card.id, { type: 'approve' }, on(phone))).toEqual({ outcome: 'sent', owner: laptop.name });
    await mirror.h.engine.run(id);
    await mirror.h.engine.whenIdle();
    expect(server.claims.get(card.id)?.decidedBy).toEqual(on(phone));
    expect((await mirror.storage.getPausePoint(card.id))?.status).toBe('pending');
    expect(mirror.h.model.requests).toHaveLength(0);
    expect(mirror.h.executions).toEqual([]);
  });

  it('tells the second device who was first', async () => {
    const { h, server, id, card } = await pausedOnLaptop();
    await h.engine.decide(card.id, { type: 'approve' }, on(laptop));
    const mirror = await phoneMirror(server, id, card.id);
    expect(await mirror.h.engine.decide(card.id, { type: 'decline' }, on(phone))).toEqual({
      outcome: 'already_decided',
      status: 'resolved',
      decidedBy: on(laptop),
    });
  });

  it('refuses a message, a retry or a recovery of a conversation another device runs, writing nothing', async () => {
    const { server, id, card } = await pausedOnLaptop();
    const mirror = await phoneMirror(server, id, card.id);
    await expect(mirror.h.engine.send(id, 'hello from the phone')).rejects.toThrow(CallerError);
    await expect(mirror.h.engine.send(id, 'again')).rejects.toThrow(/runs on Chromium on Linux/);
    expect(await mirror.storage.listMessages(id)).toEqual([]);
    await mirror.storage.updateConversation(id, (c) => ({ ...c, state: { kind: 'running', owner: 'laptop-tab', since: 1 } }));
    expect(await mirror.h.engine.recover(id)).toBe(false);
    expect(await mirror.h.engine.watch(id)).toBe(false);
    expect(mirror.h.model.requests).toHaveLength(0);
    expect((await mirror.storage.getConversation(id))?.state.kind).toBe('running');
  });

  it('decides here when the owner cannot reach the server, and keeps the claim to send later', async () => {
    const { h, server, devices, card } = await pausedOnLaptop();
    server.reachable = false;
    expect(await h.engine.decide(card.id, { type: 'approve' }, on(laptop))).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();
    expect(h.executions).toHaveLength(1);
    expect(devices.queued).toEqual([{ pausePointId: card.id, decision: { type: 'approve' }, decidedBy: on(laptop) }]);
  });

  it('only queues the decision of another device that cannot reach the server', async () => {
    const { server, id, card } = await pausedOnLaptop();
    const mirror = await phoneMirror(server, id, card.id);
    server.reachable = false;
    expect(await mirror.h.engine.decide(card.id, { type: 'approve' }, on(phone))).toEqual({ outcome: 'queued' });
    expect(mirror.devices.queued).toHaveLength(1);
    expect(server.claims.size).toBe(0);
    expect((await mirror.storage.getPausePoint(card.id))?.status).toBe('pending');
  });

  it('asks the device that runs a conversation to stop it', async () => {
    const { server, id, card } = await pausedOnLaptop();
    const mirror = await phoneMirror(server, id, card.id);
    await mirror.h.engine.stopEverywhere(id);
    expect(mirror.devices.stopsRequested).toEqual([id]);
  });

  it('claims nothing for a decision that does not fit the card', async () => {
    const { h, server, card } = await pausedOnLaptop();
    const result = await h.engine.decide(card.id, { type: 'choose', option: 'maybe' }, on(laptop));
    expect(result.outcome).toBe('invalid');
    expect(server.claims.size).toBe(0);
  });
});
