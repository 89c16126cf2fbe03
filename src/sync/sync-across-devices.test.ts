import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { deviceIdentity } from '../identity/identity-store.ts';
import { verifyDeviceSignature } from '../identity/device-signature.ts';
import { deriveSyncKeys } from './crypto/data-key.ts';
import { openForDevice } from './crypto/device-vault.ts';
import { pairingBlobFrom } from './crypto/pairing-link.ts';
import { openDocument } from './crypto/envelope.ts';
import { readMembership } from './membership/membership-store.ts';
import type { SyncDocument } from './sync-document.ts';
import { currentPath } from '../engine/versions/current-path.ts';
import { readVault } from './sync-store.ts';
import { eventually, type SyncedDevice } from './testing/synced-device.ts';
import { syncTestbed, TEST_AUTH, TEST_PASSPHRASE, TEST_USER } from './testing/sync-testbed.ts';

/**
 * Two of the person's devices, each with its own database, engine and sync
 * service, syncing through a real CouchDB-protocol server (pouchdb-server,
 * in memory, with a user and the database's `_security`, so every request is
 * authenticated as in production).
 */
const PASSPHRASE = TEST_PASSPHRASE;

const bed = syncTestbed('devices');
const USER = TEST_USER;

const bigTransfer = { calls: [{ name: 'transfer', args: { amount: 48_173, to: 'Ada Lovelace' } }] };

const { database, device } = bed;

/** The laptop turns sync on and pauses on a transfer; the phone joins with the laptop's pairing link. */
async function laptopAndPhone() {
  const db = await database();
  const laptop = await device('Laptop', [bigTransfer, { text: 'Sent.' }]);
  const on = await laptop.sync.turnOn({ deviceName: 'Laptop', serverUrl: bed.server.url, database: db, ...USER, passphrase: PASSPHRASE });
  expect(on).toEqual({ ok: true });
  const { conversationId } = await laptop.engine.send(null, 'pay Ada');
  await laptop.engine.whenIdle();
  const [card] = await laptop.db.pausePoints.where('status').equals('pending').toArray();
  expect(card?.title).toContain('48173');

  const phone = await device('Phone');
  const invite = await laptop.sync.addDevice();
  const joined = await phone.sync.join({ blob: pairingBlobFrom(new URL(invite.link).hash)!, code: invite.code, deviceName: 'Phone' });
  expect(joined).toEqual({ ok: true });
  await eventually('the card reaches the phone', async () => (await phone.db.pausePoints.get(card!.id))?.status === 'pending');
  return { db, laptop, phone, conversationId, card: card! };
}

/** `laptopAndPhone`, and a tablet paired from the laptop, once `watcher` has pinned all three from the membership log. */
async function laptopPhoneAndTablet(watcher: 'laptop' | 'phone') {
  const devices = await laptopAndPhone();
  const tablet = await device('Tablet');
  const invite = await devices.laptop.sync.addDevice();
  expect(await tablet.sync.join({ blob: pairingBlobFrom(new URL(invite.link).hash)!, code: invite.code, deviceName: 'Tablet' })).toEqual({ ok: true });
  const { db } = devices[watcher];
  await eventually(`the ${watcher} has pinned all three devices from the log`, async () => (await readMembership(db)).members.filter((m) => !m.removed).length === 3);
  return { ...devices, tablet };
}

// Two devices, a server and PBKDF2 at 600,000 iterations per setup: seconds per test, more on a loaded machine.
const SLOW = { timeout: 60_000 };

describe('sync across devices', SLOW, () => {
  it('shows the laptop’s conversation and card on the phone, owned by the laptop', async () => {
    const { laptop, phone, conversationId } = await laptopAndPhone();
    const mirrored = await phone.db.conversations.get(conversationId);
    expect(mirrored?.ownerDevice).toEqual({ id: laptop.id, name: 'Laptop' });
    expect(await phone.db.messages.where('conversationId').equals(conversationId).count()).toBe(await laptop.db.messages.where('conversationId').equals(conversationId).count());
    await eventually('the phone lists the laptop as a device', async () => (await phone.db.syncDevices.get(laptop.id))?.name === 'Laptop');
    expect(phone.model.requests).toHaveLength(0);
  });

  it('approves on the phone: exactly one continuation on the laptop, and every device shows who decided', async () => {
    const { laptop, phone, card } = await laptopAndPhone();
    expect(await phone.engine.decide(card.id, { type: 'approve' }, phone.by())).toEqual({ outcome: 'sent', owner: 'Laptop' });
    await eventually('the laptop continues', async () => laptop.model.requests.length === 2);
    await laptop.engine.whenIdle();
    expect(laptop.executions).toEqual([{ amount: 48_173, to: 'Ada Lovelace' }]);
    expect(await laptop.db.pausePoints.get(card.id)).toMatchObject({ status: 'resolved', resolution: 'approve', decidedBy: { ...phone.by(), via: 'sync' } });
    await eventually('the phone shows the decision', async () => (await phone.db.pausePoints.get(card.id))?.status === 'resolved');
    expect((await phone.db.remoteDecisions.get(card.id))?.state).toBe('won');
    expect(phone.model.requests).toHaveLength(0);
    expect(phone.executions).toEqual([]);
  });

  it('a decision made on the phone reaches the laptop with the phone’s signature, which the phone’s key verifies', async () => {
    const { laptop, phone, card } = await laptopAndPhone();
    expect(await phone.engine.decide(card.id, { type: 'decline', reason: 'not today' }, phone.by())).toEqual({ outcome: 'sent', owner: 'Laptop' });
    await eventually('the laptop applies it', async () => (await laptop.db.pausePoints.get(card.id))?.status === 'resolved');
    const stored = await laptop.db.pausePoints.get(card.id);
    const phoneKey = await deviceIdentity(phone.db);
    expect(stored?.deviceSignature).toMatchObject({ key_id: phoneKey.keyId, signed: { card_id: card.id, status: 'resolved', resolution: 'decline', reason: 'not today', by: 'person' } });
    expect(await verifyDeviceSignature(phoneKey.publicKey, stored?.deviceSignature)).toBe(true);
    expect(await verifyDeviceSignature((await deviceIdentity(laptop.db)).publicKey, stored?.deviceSignature)).toBe(false);
  });

  it('a version the laptop makes (Regenerate) shows on the phone as the laptop shows it; the phone cannot change versions', async () => {
    const { laptop, phone, conversationId, card } = await laptopAndPhone();
    await laptop.engine.decide(card.id, { type: 'decline' }, laptop.by());
    await laptop.engine.whenIdle();
    laptop.model.push({ text: 'A second answer.' });
    await laptop.engine.regenerate(conversationId);
    await laptop.engine.whenIdle();
    const shownOn = async (d: SyncedDevice) => {
      const conversation = await d.db.conversations.get(conversationId);
      const messages = await d.db.messages.where('[conversationId+seq]').between([conversationId, -Infinity], [conversationId, Infinity]).toArray();
      return currentPath(messages, conversation?.versions).map((m) => m.content);
    };
    const onLaptop = await shownOn(laptop);
    expect(onLaptop).toEqual(['pay Ada', 'A second answer.']);
    await eventually('the phone shows the laptop’s version', async () => JSON.stringify(await shownOn(phone)) === JSON.stringify(onLaptop));
    expect((await phone.db.conversations.get(conversationId))?.versions).toEqual((await laptop.db.conversations.get(conversationId))?.versions);
    await expect(phone.engine.switchVersion(conversationId, '')).rejects.toMatchObject({ code: 'elsewhere' });
    expect(phone.model.requests).toHaveLength(0);
  });

  it('both press at once: one continuation, and the second device is told who was first', async () => {
    const { laptop, phone, card } = await laptopAndPhone();
    const [onLaptop, onPhone] = await Promise.all([
      laptop.engine.decide(card.id, { type: 'approve' }, laptop.by()),
      phone.engine.decide(card.id, { type: 'decline', reason: 'not now' }, phone.by()),
    ]);
    await eventually('the laptop settles', async () => (await laptop.db.pausePoints.get(card.id))?.status === 'resolved');
    await eventually('the laptop continues', async () => laptop.model.requests.length === 2);
    await laptop.engine.whenIdle();
    const decided = (await laptop.db.pausePoints.get(card.id))!;
    const laptopWon = decided.decidedBy?.deviceId === laptop.id;
    expect(laptop.executions).toHaveLength(laptopWon ? 1 : 0);
    expect(onLaptop.outcome).toBe(laptopWon ? 'decided' : 'already_decided');
    expect(onPhone).toEqual(laptopWon ? { outcome: 'already_decided', status: 'resolved', decidedBy: laptop.by() } : { outcome: 'sent', owner: 'Laptop' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(laptop.model.requests).toHaveLength(2);
  });

  it('a decision made while the laptop is closed waits on the server and resumes once when it opens', async () => {
    const { laptop, phone, card } = await laptopAndPhone();
    laptop.sync.stop();
    expect(await phone.engine.decide(card.id, { type: 'approve' }, phone.by())).toEqual({ outcome: 'sent', owner: 'Laptop' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(laptop.model.requests).toHaveLength(1);
    await laptop.sync.start();
    await eventually('the laptop resumes', async () => laptop.model.requests.length === 2);
    await laptop.engine.whenIdle();
    expect(laptop.executions).toHaveLength(1);
  });

  it('the laptop decides offline while the phone decides: one side effect, and both end showing the laptop’s decision', async () => {
    const { laptop, phone, card } = await laptopAndPhone();
    laptop.offline.on = true;
    expect(await laptop.engine.decide(card.id, { type: 'approve' }, laptop.by())).toEqual({ outcome: 'decided' });
    await laptop.engine.whenIdle();
    expect(laptop.executions).toHaveLength(1);
    expect(await phone.engine.decide(card.id, { type: 'decline' }, phone.by())).toEqual({ outcome: 'sent', owner: 'Laptop' });
    laptop.offline.on = false;
    laptop.sync.retryNow();
    await eventually('the laptop’s own claim comes back lost', async () => (await laptop.db.remoteDecisions.get(card.id))?.state === 'lost');
    await eventually('the phone shows the laptop’s decision', async () => (await phone.db.pausePoints.get(card.id))?.decidedBy?.deviceId === laptop.id);
    expect((await phone.db.pausePoints.get(card.id))?.resolution).toBe('approve');
    expect((await phone.db.remoteDecisions.get(card.id))?.state).toBe('won');
    expect(laptop.executions).toHaveLength(1);
    expect(laptop.model.requests).toHaveLength(2);
  });

  it('the server never sees a title, a message, a card, an argument or a device name', async () => {
    const { db, laptop, phone, card } = await laptopAndPhone();
    await phone.engine.decide(card.id, { type: 'decline', reason: 'the secret reason' }, phone.by());
    await eventually('the laptop continues', async () => laptop.model.requests.length === 2);
    await laptop.engine.whenIdle();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stored = await (await fetch(`${bed.server.url}/${db}/_all_docs?include_docs=true`, { headers: TEST_AUTH })).text();
    expect(stored.length).toBeGreaterThan(1000);
    for (const plain of ['pay Ada', 'Ada Lovelace', '48173', card.title, 'Laptop', 'Phone', 'the secret reason', 'transfer', 'Sent.']) {
      expect(stored, plain).not.toContain(plain);
    }
  });

  it('a wrong passphrase on another device is refused and writes nothing', async () => {
    const { db } = await laptopAndPhone();
    const tablet = await device('Tablet');
    const result = await tablet.sync.turnOn({ deviceName: 'Tablet', serverUrl: bed.server.url, database: db, ...USER, passphrase: 'not the passphrase' });
    expect(result).toMatchObject({ ok: false, refusal: { kind: 'wrong_passphrase' } });
    expect(await tablet.db.settings.get('sync')).toBeUndefined();
    expect(tablet.sync.on).toBe(false);
  });

  it('the right passphrase on another device joins without a link', async () => {
    const { db, conversationId } = await laptopAndPhone();
    const tablet = await device('Tablet');
    expect(await tablet.sync.turnOn({ deviceName: 'Tablet', serverUrl: bed.server.url, database: db, ...USER, passphrase: PASSPHRASE })).toEqual({ ok: true });
    await eventually('the conversation reaches the tablet', async () => (await tablet.db.conversations.get(conversationId)) !== undefined);
  });

  it('a pairing link works once', async () => {
    const { laptop } = await laptopAndPhone();
    const invite = await laptop.sync.addDevice();
    const blob = pairingBlobFrom(new URL(invite.link).hash)!;
    const tablet = await device('Tablet');
    expect(await tablet.sync.join({ blob, code: invite.code, deviceName: 'Tablet' })).toEqual({ ok: true });
    const other = await device('Other');
    expect(await other.sync.join({ blob, code: invite.code, deviceName: 'Other' })).toMatchObject({ ok: false, refusal: { kind: 'link_used' } });
    expect(await other.sync.join({ blob, code: 'AAAA-AAAA-AAAA', deviceName: 'Other' })).toMatchObject({ ok: false, refusal: { kind: 'wrong_code' } });
  });

  it('wrong credentials and a missing database are refused with what to do', async () => {
    const laptop = await device('Laptop');
    const db = await database();
    expect(await laptop.sync.turnOn({ deviceName: 'Laptop', serverUrl: bed.server.url, database: db, username: 'ada', password: 'wrong', passphrase: PASSPHRASE })).toMatchObject({
      ok: false,
      refusal: { kind: 'unauthorized' },
    });
    const missing = { deviceName: 'Laptop', serverUrl: bed.server.url, database: 'not-there', ...bed.server.admin, passphrase: PASSPHRASE };
    expect(await laptop.sync.turnOn(missing)).toMatchObject({ ok: false, refusal: { kind: 'no_database' } });
    expect(await laptop.sync.turnOn({ ...missing, createDatabase: true })).toEqual({ ok: true });
    expect(await laptop.sync.turnOn({ ...missing, serverUrl: 'http://127.0.0.1:9' })).toMatchObject({ ok: false, refusal: { kind: 'unreachable' } });
  });
});

describe('removing a device', SLOW, () => {
  it('the removed device stops syncing and forgets the key; the others take nothing more from it', async () => {
    const { laptop, phone, card } = await laptopAndPhone();
    await eventually('the laptop knows the phone', async () => (await laptop.db.syncDevices.get(phone.id)) !== undefined);
    await laptop.sync.removeDevice(phone.id);
    expect((await laptop.db.syncDevices.get(phone.id))?.removed).toBe(true);
    await eventually('the phone has stopped syncing', async () => !phone.sync.on);
    expect(await phone.db.settings.get('syncVault')).toBeUndefined();
    expect((await phone.db.settings.get('syncStatus'))?.value).toMatchObject({ kind: 'off', message: expect.stringMatching(/removed/) });
    // Whatever the removed device still sends is not taken: the card stays pending on the laptop.
    expect((await laptop.db.pausePoints.get(card.id))?.status).toBe('pending');
  });
});

describe('rotating the data key', SLOW, () => {
  it('Remove rotates the key: the devices that stay go on, and nothing written after opens with the removed device’s key', async () => {
    const { db, laptop, phone, card, tablet } = await laptopPhoneAndTablet('laptop');
    // The tablet keeps its key and goes quiet, as a device that ignores its removal would.
    const vault = (await readVault(tablet.db))!;
    const tabletKeys = await deriveSyncKeys(await openForDevice(vault.vaultKey, vault.sealed));
    tablet.sync.stop();

    await laptop.sync.removeDevice(tablet.id);
    expect((await readVault(laptop.db))?.epoch).toBe(2);
    await eventually('the phone takes the new key', async () => (await readVault(phone.db))?.epoch === 2);

    expect(await phone.engine.decide(card.id, { type: 'approve' }, phone.by())).toEqual({ outcome: 'sent', owner: 'Laptop' });
    await eventually('the laptop continues', async () => laptop.model.requests.length === 2);
    await laptop.engine.whenIdle();
    expect(laptop.executions).toHaveLength(1);
    await eventually('the phone shows the decision', async () => (await phone.db.pausePoints.get(card.id))?.status === 'resolved');

    const auth = TEST_AUTH;
    const { rows } = (await (await fetch(`${bed.server.url}/${db}/_all_docs?include_docs=true`, { headers: auth })).json()) as { rows: { id: string; doc: { _id: string; e?: unknown } }[] };
    // Opened as the removed tablet can, with the old key alone (its signatures do not matter to what it can read).
    const opened = await Promise.all(
      rows.filter((r) => r.doc.e).map((r) => openDocument(tabletKeys, { database: db, docId: r.id }, r.doc.e).then((p) => (p as { doc: SyncDocument }).doc, () => undefined)),
    );
    expect(opened.filter((d) => d === undefined).length).toBeGreaterThan(5);
    // What the old key still opens is from before the rotation: the card pending, no decision of the phone.
    expect(opened.some((d) => d?.kind === 'decision')).toBe(false);
    expect(opened.some((d) => d?.kind === 'pausePoint' && d.record.status === 'resolved')).toBe(false);

    // The passphrase wraps the first key only: a new device is told to pair from one that syncs.
    const late = await device('Late tablet');
    const refused = await late.sync.turnOn({ deviceName: 'Late tablet', serverUrl: bed.server.url, database: db, ...USER, passphrase: PASSPHRASE });
    expect(refused).toMatchObject({ ok: false, refusal: { message: expect.stringMatching(/pair this device/) } });
    // Pairing from a device that stays works under the new key.
    const newInvite = await phone.sync.addDevice();
    expect(await late.sync.join({ blob: pairingBlobFrom(new URL(newInvite.link).hash)!, code: newInvite.code, deviceName: 'Late tablet' })).toEqual({ ok: true });
    await eventually('the late tablet gets the decided card', async () => (await late.db.pausePoints.get(card.id))?.status === 'resolved');
  });

  it('a claim the phone makes under the old key, before it sees the rotation, is sent again under the new one: the card is decided once', async () => {
    const { laptop, phone, card, tablet } = await laptopPhoneAndTablet('laptop');

    // The phone hears nothing of the rotation, and approves under the key it holds.
    phone.deaf.on = true;
    await laptop.sync.removeDevice(tablet.id);
    expect((await readVault(laptop.db))?.epoch).toBe(2);
    expect(await phone.engine.decide(card.id, { type: 'approve' }, phone.by())).toEqual({ outcome: 'sent', owner: 'Laptop' });
    expect((await readVault(phone.db))?.epoch).toBe(1);
    expect((await phone.db.remoteDecisions.get(card.id))?.state).toBe('won');
    // The laptop, on the new key, takes that claim as superseded: the card waits.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(laptop.model.requests).toHaveLength(1);
    expect((await laptop.db.pausePoints.get(card.id))?.status).toBe('pending');

    phone.deaf.on = false;
    await phone.sync.retryNow();
    await eventually('the phone takes the new key', async () => (await readVault(phone.db))?.epoch === 2);
    await eventually('the laptop continues', async () => laptop.model.requests.length === 2);
    await laptop.engine.whenIdle();
    expect(laptop.executions).toEqual([{ amount: 48_173, to: 'Ada Lovelace' }]);
    expect(await laptop.db.pausePoints.get(card.id)).toMatchObject({ status: 'resolved', resolution: 'approve', decidedBy: { ...phone.by(), via: 'sync' } });
    await eventually('the phone shows the decision', async () => (await phone.db.pausePoints.get(card.id))?.status === 'resolved');
    expect((await phone.db.remoteDecisions.get(card.id))?.state).toBe('won');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(laptop.model.requests).toHaveLength(2);
    expect(laptop.executions).toHaveLength(1);
  });

  it('sync stays on through a rotation, also when the feed brings it at the same time: a decision made meanwhile is claimed, never decided here', async () => {
    const { laptop, phone, card, tablet } = await laptopPhoneAndTablet('phone');

    // Between any two tasks of the switch to the new key, the phone's sync is asked whether it is on.
    let offSeen = 0;
    const watch = setInterval(() => (offSeen += phone.sync.on ? 0 : 1), 0);
    await Promise.all([phone.sync.removeDevice(tablet.id), phone.sync.retryNow()]);
    await eventually('the phone runs under the new key', async () => (await readVault(phone.db))?.epoch === 2);
    const decided = await phone.engine.decide(card.id, { type: 'approve' }, phone.by());
    clearInterval(watch);
    expect(offSeen).toBe(0);
    expect(decided).toEqual({ outcome: 'sent', owner: 'Laptop' });
    await eventually('the laptop continues', async () => laptop.model.requests.length === 2);
  });

  it('a claim under the new key, read by an owner that has not taken the rotation yet, is applied once it has: the card is decided once', async () => {
    const { laptop, phone, card, tablet } = await laptopPhoneAndTablet('phone');

    // The laptop is closed while the phone removes the tablet and approves under the new key.
    laptop.sync.stop();
    await phone.sync.removeDevice(tablet.id);
    expect((await readVault(phone.db))?.epoch).toBe(2);
    expect(await phone.engine.decide(card.id, { type: 'approve' }, phone.by())).toEqual({ outcome: 'sent', owner: 'Laptop' });

    // It opens and reads the rotation and the claim in one page of the feed.
    await laptop.sync.start();
    await eventually('the laptop takes the new key', async () => (await readVault(laptop.db))?.epoch === 2);
    await eventually('the laptop continues', async () => laptop.model.requests.length === 2);
    await laptop.engine.whenIdle();
    expect(laptop.executions).toEqual([{ amount: 48_173, to: 'Ada Lovelace' }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(laptop.model.requests).toHaveLength(2);
  });
});
