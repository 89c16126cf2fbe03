import { describe, expect, it } from 'vitest';
import { decisionView } from './decision-view.ts';
import type { DecidedBy, DeviceSignature, OwnerDevice, PausePoint } from './records/index.ts';
import { harness, pending, say, tab } from './testing/harness.ts';
import { makeConversation } from './testing/make-records.ts';
import { MemoryClaimServer, MemoryDevices } from './testing/memory-devices.ts';
import { MemoryRules } from './testing/memory-rules.ts';
import { MemorySigner } from './testing/memory-signer.ts';
import { MemoryStorage } from './testing/memory-storage.ts';
import { viewHash } from './view-hash.ts';

const bigTransfer = { calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] };
const twoTransfers = { calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }, { name: 'transfer', args: { amount: 700, to: 'eve' } }] };
const iso = (ms: number) => new Date(ms).toISOString();

describe('every decision is signed by the device that makes it, before its compare-and-set', () => {
  it('signs a person’s decision as made — card, view, resolution, edited arguments, reply, time — and stores the signature on the card', async () => {
    const signer = new MemorySigner();
    const h = harness([bigTransfer, { text: 'Sent.' }], { signer });
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    const edit = { amount: 400, to: 'bob' };
    const hash = viewHash(decisionView({ pause: card!, edit }));
    expect(await h.engine.decide(card!.id, { type: 'approve', editedPayload: edit, reply: ' fine ', viewHash: hash }, tab('tab-A'))).toEqual({ outcome: 'decided' });
    const signed = { card_id: card!.id, view_hash: hash, status: 'resolved', resolution: 'approve', by: 'person', decided_at: iso(h.clock.now()), edited_payload: edit, reason: 'fine' };
    expect(signer.signedObjects).toEqual([signed]);
    expect((await h.storage.getPausePoint(card!.id))?.deviceSignature).toEqual({ alg: 'ES256', key_id: 'test-key', signed, value: expect.any(String) });
  });

  it('discards the signature of a decision the compare-and-set refuses: the card keeps the first decision’s', async () => {
    const signer = new MemorySigner();
    const h = harness([bigTransfer, { text: 'Sent.' }], { signer });
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    await h.engine.decide(card!.id, { type: 'decline', reason: 'no' }, tab('tab-A'));
    expect(await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-B'))).toMatchObject({ outcome: 'already_decided' });
    // A decision on a view the card does not have is refused too, and signed for nothing.
    expect(signer.signedObjects).toHaveLength(2);
    expect((await h.storage.getPausePoint(card!.id))?.deviceSignature?.signed).toMatchObject({ resolution: 'decline', reason: 'no' });
  });

  it('signs each card of Approve all with the batch’s id', async () => {
    const signer = new MemorySigner();
    const h = harness([twoTransfers, { text: 'Both sent.' }], { signer });
    const id = await say(h, null, 'pay both');
    const cards = await pending(h, id);
    const { batchId } = await h.engine.decideBatch(
      cards.map((c) => c.id),
      { type: 'approve' },
      tab('tab-A'),
    );
    for (const card of cards) {
      expect((await h.storage.getPausePoint(card.id))?.deviceSignature?.signed).toMatchObject({ card_id: card.id, resolution: 'approve', batch_id: batchId, by: 'person' });
    }
  });

  it('signs a rule’s decision with the rule and the card it decided, before the record is stored', async () => {
    const signer = new MemorySigner();
    const rules = new MemoryRules();
    const h = harness([bigTransfer, { text: 'Sent.' }], { signer, rules });
    const rule = await h.engine.addRule({ effect: 'allow', tool: 'transfer', scope: { kind: 'everywhere' }, source: 'card' });
    const id = await say(h, null, 'pay bob');
    const [decided] = (await h.storage.listPausePoints(id)).filter((p) => p.origin === 'rule');
    const { deviceSignature: _, status: __, resolution: ___, resolvedAt: ____, rule: _____, ...asCard } = decided!;
    const cardHash = viewHash(decisionView({ pause: { ...asCard, status: 'pending', resolution: null, resolvedAt: null } }));
    expect(decided?.deviceSignature?.signed).toEqual({
      card_id: decided!.id,
      view_hash: cardHash,
      status: 'resolved',
      resolution: 'approve',
      by: 'rule',
      decided_at: iso(decided!.resolvedAt!),
      rule_id: rule.id,
    });
  });

  it('signs an expiry and the timeout’s decline as the device that ran them', async () => {
    const signer = new MemorySigner();
    const h = harness([bigTransfer, { text: 'Expired.' }], { signer, settings: { expiryMs: async () => 60_000 } });
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    h.clock.advance(60_000);
    await h.engine.run(id);
    await h.engine.whenIdle();
    const expired = await h.storage.getPausePoint(card!.id);
    expect(expired?.deviceSignature?.signed).toEqual({
      card_id: card!.id,
      view_hash: viewHash(decisionView({ pause: card! })),
      status: 'expired',
      resolution: null,
      by: 'expiry',
      decided_at: iso(expired!.resolvedAt!),
      expired_reason: 'timeout',
    });

    const declining = harness([bigTransfer, { text: 'Declined.' }], { signer, settings: { expiryMs: async () => null, declineAfterMs: async () => 60_000 } });
    const other = await say(declining, null, 'pay bob');
    const [late] = await pending(declining, other);
    declining.clock.advance(60_000);
    await declining.engine.run(other);
    await declining.engine.whenIdle();
    expect((await declining.storage.getPausePoint(late!.id))?.deviceSignature?.signed).toMatchObject({ status: 'resolved', resolution: 'decline', by: 'timeout', reason: expect.stringContaining('Nobody decided') });
  });
});

/** A signer whose expiry signatures wait until `release`: the moment between a refused or aborted transaction and the signed one. */
class HeldExpirySigner extends MemorySigner {
  #release!: () => void;
  readonly #held = new Promise<void>((resolve) => (this.#release = resolve));
  #waiting!: () => void;
  /** Resolves once an expiry's signature is being waited for. */
  readonly waiting = new Promise<void>((resolve) => (this.#waiting = resolve));

  override async sign(signed: Record<string, unknown>): Promise<DeviceSignature> {
    if (signed.status === 'expired' || signed.by === 'timeout') {
      this.#waiting();
      await this.#held;
    }
    return super.sign(signed);
  }

  release(): void {
    this.#release();
  }
}

const expirySigned = (card: PausePoint, at: number, why: 'timeout' | 'abandoned') => ({
  card_id: card.id,
  view_hash: viewHash(decisionView({ pause: card })),
  status: 'expired',
  resolution: null,
  by: 'expiry',
  decided_at: iso(at),
  expired_reason: why,
});

describe('the expiries settled inside another transaction are signed too, over exactly what it writes', () => {
  it('signs each card a Send sets aside, in the Send’s own transaction, once each', async () => {
    const signer = new MemorySigner();
    const h = harness([twoTransfers, { text: 'Fine, I will not.' }], { signer });
    const id = await say(h, null, 'pay both');
    const cards = await pending(h, id);
    expect(cards).toHaveLength(2);
    h.clock.advance(5_000);
    await say(h, id, 'never mind');
    const at = h.clock.now();
    for (const card of cards) {
      const aside = await h.storage.getPausePoint(card.id);
      expect(aside).toMatchObject({ status: 'expired', expiredReason: 'abandoned', resolvedAt: at });
      expect(aside?.deviceSignature).toEqual({ alg: 'ES256', key_id: 'test-key', signed: expirySigned(card, at, 'abandoned'), value: expect.any(String) });
    }
    // Signed once each: the Send's first transaction wrote nothing, and the second took both signatures.
    expect(signer.signedObjects.filter((o) => o.expired_reason === 'abandoned')).toHaveLength(2);
    const user = (await h.storage.listMessages(id)).filter((m) => m.role === 'user');
    expect(user.map((m) => m.content)).toContain('never mind');
    expect(user.filter((m) => m.content === 'never mind')).toHaveLength(1);
  });

  it('a Send with no card to set aside signs nothing', async () => {
    const signer = new MemorySigner();
    const h = harness([{ text: 'Hello.' }, { text: 'Again.' }], { signer });
    const id = await say(h, null, 'hi');
    await say(h, id, 'hi again');
    expect(signer.signedObjects).toEqual([]);
  });

  it('a tab that dies while a Send’s set-aside is being signed leaves what was there before the press: no message, the card pending', async () => {
    const signer = new HeldExpirySigner();
    const h = harness([bigTransfer, { text: 'Sent.' }], { signer });
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    const sending = h.engine.send(id, 'never mind');
    await signer.waiting;
    // The window: the first transaction was aborted, the signed one is not made yet.
    expect(await h.storage.getPausePoint(card!.id)).toMatchObject({ status: 'pending' });
    expect((await h.storage.listMessages(id)).map((m) => m.content)).not.toContain('never mind');
    expect(await h.storage.getConversation(id)).toMatchObject({ state: { kind: 'paused', pending: 1 } });
    // The tab lives on: the Send is stored with its signed set-aside.
    signer.release();
    await sending;
    await h.engine.whenIdle();
    expect((await h.storage.getPausePoint(card!.id))?.deviceSignature?.signed).toMatchObject({ card_id: card!.id, expired_reason: 'abandoned' });
  });

  it('signs the expiry a late press finds, and not the person’s too-late decision', async () => {
    const signer = new MemorySigner();
    const h = harness([bigTransfer, { text: 'Expired.' }], { signer, settings: { expiryMs: async () => 60_000 } });
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    h.clock.advance(60_000);
    expect(await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'))).toEqual({ outcome: 'expired' });
    const expired = await h.storage.getPausePoint(card!.id);
    expect(expired).toMatchObject({ status: 'expired', expiredReason: 'timeout', resolvedAt: h.clock.now() });
    expect(expired?.deviceSignature).toEqual({ alg: 'ES256', key_id: 'test-key', signed: expirySigned(card!, h.clock.now(), 'timeout'), value: expect.any(String) });
    await h.engine.whenIdle();
    expect(h.executions).toEqual([]);
    // Its expiry was written once, by the press: no sweep settled it again.
    expect(signer.signedObjects.filter((o) => o.status === 'expired')).toHaveLength(1);
  });

  it('signs the timeout’s decline a late press finds (If nobody decides)', async () => {
    const signer = new MemorySigner();
    const h = harness([bigTransfer, { text: 'Declined.' }], { signer, settings: { expiryMs: async () => null, declineAfterMs: async () => 60_000 } });
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    h.clock.advance(60_000);
    await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'));
    expect((await h.storage.getPausePoint(card!.id))?.deviceSignature?.signed).toMatchObject({
      card_id: card!.id,
      status: 'resolved',
      resolution: 'decline',
      by: 'timeout',
      decided_at: iso(h.clock.now()),
    });
  });

  it('a tab that dies while a late press’s expiry is being signed leaves the card pending, and the next run expires it signed', async () => {
    const held = new HeldExpirySigner();
    const h = harness([bigTransfer, { text: 'Expired.' }], { signer: held, settings: { expiryMs: async () => 60_000 } });
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    h.clock.advance(60_000);
    void h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'));
    await held.waiting;
    // The window: the press's transaction wrote nothing.
    expect(await h.storage.getPausePoint(card!.id)).toMatchObject({ status: 'pending', resolvedAt: null });
    expect((await h.storage.listMessages(id)).filter((m) => m.role === 'user')).toHaveLength(1);
    // That tab is gone; another tab of the device takes the conversation over and sweeps it.
    const signer = new MemorySigner();
    const other = h.openTab('tab-B', { signer });
    await other.run(id);
    await other.whenIdle();
    expect((await h.storage.getPausePoint(card!.id))?.deviceSignature).toMatchObject({ signed: { card_id: card!.id, status: 'expired', by: 'expiry', expired_reason: 'timeout' } });
    expect(h.executions).toEqual([]);
  });
});

describe('a decision made on another device carries that device’s signature to the owner', () => {
  const laptop: OwnerDevice = { id: 'laptop', name: 'Chromium on Linux' };
  const phone: OwnerDevice = { id: 'phone', name: 'Chrome on Android' };
  const on = (device: OwnerDevice): DecidedBy => ({ tabId: 'tab-1', deviceId: device.id, label: device.name });

  it('the phone signs and claims; the laptop stores the phone’s signature when it applies the claim', async () => {
    const server = new MemoryClaimServer();
    const owner = harness([bigTransfer, { text: 'Done.' }], { devices: new MemoryDevices(server, laptop), signer: new MemorySigner('laptop-key') });
    const id = await say(owner, null, 'pay bob');
    const [card] = await pending(owner, id);

    const storage = new MemoryStorage();
    await storage.putConversation(makeConversation({ id, ownerDevice: laptop, state: { kind: 'paused', pending: 1 } }));
    await storage.createPausePoint({ ...card! });
    const phoneSigner = new MemorySigner('phone-key');
    const mirror = harness([], { storage, devices: new MemoryDevices(server, phone), signer: phoneSigner });
    expect(await mirror.engine.decide(card!.id, { type: 'decline', reason: 'not today' }, on(phone))).toEqual({ outcome: 'sent', owner: laptop.name });
    const claim = server.claims.get(card!.id)!;
    expect(claim.signature).toMatchObject({ key_id: 'phone-key', signed: { card_id: card!.id, resolution: 'decline', reason: 'not today', by: 'person' } });

    await owner.engine.applyClaimed(card!.id, claim.decision, { ...claim.decidedBy, via: 'sync' }, claim.signature);
    expect((await owner.storage.getPausePoint(card!.id))?.deviceSignature).toEqual(claim.signature);
  });

  it('the owner drops a claimed signature that signs another decision, and applies the decision unsigned', async () => {
    const owner = harness([bigTransfer, { text: 'Done.' }], { signer: new MemorySigner('laptop-key') });
    const id = await say(owner, null, 'pay bob');
    const [card] = await pending(owner, id);
    const forged = await new MemorySigner('phone-key').sign({ card_id: card!.id, view_hash: null, status: 'resolved', resolution: 'approve', by: 'person', decided_at: iso(0) });
    await owner.engine.applyClaimed(card!.id, { type: 'decline' }, { ...on(phone), via: 'sync' }, forged);
    const stored = await owner.storage.getPausePoint(card!.id);
    expect(stored).toMatchObject({ status: 'resolved', resolution: 'decline' });
    expect(stored?.deviceSignature).toBeUndefined();
  });
});

describe('without a signer', () => {
  it('stores decisions unsigned, as before', async () => {
    const h = harness([bigTransfer, { text: 'Sent.' }]);
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'));
    expect((await h.storage.getPausePoint(card!.id))?.deviceSignature).toBeUndefined();
  });
});
