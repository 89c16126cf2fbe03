import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { deviceIdentity } from '../identity/identity-store.ts';
import { CouchClient } from './couch/couch-client.ts';
import { deriveSyncKeys, newDataKey } from './crypto/data-key.ts';
import { openForDevice } from './crypto/device-vault.ts';
import { openDocument, sealDocument } from './crypto/envelope.ts';
import { grantKey, openGrant, type KeyGrant } from './crypto/key-grant.ts';
import { pairingBlobFrom } from './crypto/pairing-link.ts';
import { memberDocId, type MembershipEntry } from './membership/membership-entry.ts';
import { MembershipError, writeEntry } from './membership/membership-log.ts';
import { foldAll, type MembershipState } from './membership/membership-state.ts';
import { readMembership, readStoredLog } from './membership/membership-store.ts';
import { signEntry } from './membership/membership-writer.ts';
import { SealedDocuments } from './sealed-documents.ts';
import { CHECK, PARAMS_ID } from './sync-setup.ts';
import { grantContext, type SyncDocument } from './sync-document.ts';
import { readSyncStatus, readVault } from './sync-store.ts';
import { eventually, type SyncedDevice } from './testing/synced-device.ts';
import { syncTestbed, TEST_AUTH, TEST_PASSPHRASE, TEST_USER } from './testing/sync-testbed.ts';

/**
 * Issue 38's review, as tests against a real CouchDB-protocol server: a
 * device that holds the data key (removed since, or still paired) writes
 * what the old design took on its word — a rotation, a device document, a
 * record "from" another device — and the devices that follow the signed
 * membership log take none of it. The attacker is played with the device's
 * own stored keys, as a modified copy of the app would hold them.
 */
const PASSPHRASE = TEST_PASSPHRASE;
const SLOW = { timeout: 90_000 };

const bed = syncTestbed('attack');
const USER = TEST_USER;

const bigTransfer = { calls: [{ name: 'transfer', args: { amount: 48_173, to: 'Ada Lovelace' } }] };
const auth = () => ({ ...TEST_AUTH, 'content-type': 'application/json' });

const device = bed.device;

async function pair(from: SyncedDevice, to: SyncedDevice): Promise<void> {
  const invite = await from.sync.addDevice();
  expect(await to.sync.join({ blob: pairingBlobFrom(new URL(invite.link).hash)!, code: invite.code, deviceName: to.name })).toEqual({ ok: true });
}

/** The laptop turns sync on and pauses on a transfer; the phone and the tablet pair from it. */
async function laptopPhoneTablet(before?: (db: string) => Promise<void>) {
  const db = await bed.database();
  const laptop = await device('Laptop', [bigTransfer, { text: 'Sent.' }]);
  expect(await laptop.sync.turnOn({ deviceName: 'Laptop', serverUrl: bed.server.url, database: db, ...USER, passphrase: PASSPHRASE })).toEqual({ ok: true });
  await laptop.engine.send(null, 'pay Ada');
  await laptop.engine.whenIdle();
  const [card] = await laptop.db.pausePoints.where('status').equals('pending').toArray();
  await before?.(db);
  const phone = await device('Phone');
  const tablet = await device('Tablet');
  await pair(laptop, phone);
  await pair(laptop, tablet);
  await eventually('the card reaches the phone and the tablet', async () =>
    (await phone.db.pausePoints.get(card!.id))?.status === 'pending' && (await tablet.db.pausePoints.get(card!.id))?.status === 'pending',
  );
  await eventually('the laptop pinned all three', async () => (await readMembership(laptop.db)).members.length === 3);
  return { db, laptop, phone, tablet, card: card! };
}

/** What a device holds that an attacker with its storage would use: its signing key, agreement key, data key, and log. */
async function stolen(d: SyncedDevice, db: string) {
  const vault = (await readVault(d.db))!;
  const raw = await openForDevice(vault.vaultKey, vault.sealed);
  const keys = await deriveSyncKeys(raw);
  const identity = await deviceIdentity(d.db);
  const entries = (await readStoredLog(d.db))!.entries;
  const client = new CouchClient({ serverUrl: bed.server.url, database: db, ...USER });
  return { vault, keys, identity, entries, state: foldAll(entries), client };
}

/** A rotation the attacker signs: it removes `removed` and grants a fresh key to `grantees` only (its own agreement key). */
async function forgedRemoval(
  thief: Awaited<ReturnType<typeof stolen>>,
  by: string,
  db: string,
  state: MembershipState,
  removed: string,
  epoch: number,
  grantees: Record<string, Parameters<typeof grantKey>[1]>,
): Promise<MembershipEntry> {
  const raw = newDataKey();
  const grants: Record<string, KeyGrant> = {};
  for (const [id, key] of Object.entries(grantees)) grants[id] = await grantKey(raw, key, grantContext(db, epoch, id));
  const check = await sealDocument(await deriveSyncKeys(raw), { database: db, docId: PARAMS_ID }, CHECK);
  return signEntry(thief.identity, { v: 1, op: 'remove', seq: state.seq + 1, prev: state.head, epoch, by, at: Date.now(), subject: { deviceId: removed }, check, grants });
}

async function putEntry(client: CouchClient, entry: MembershipEntry): Promise<void> {
  expect((await client.createDocument(memberDocId(entry), { m: entry })).outcome).toBe('created');
}

async function approveOnPhone(laptop: SyncedDevice, phone: SyncedDevice, cardId: string) {
  expect(await phone.engine.decide(cardId, { type: 'approve' }, phone.by())).toEqual({ outcome: 'sent', owner: 'Laptop' });
  await eventually('the laptop continues', async () => laptop.model.requests.length === 2);
  await laptop.engine.whenIdle();
  expect(laptop.executions).toEqual([{ amount: 48_173, to: 'Ada Lovelace' }]);
}

describe('a removed device cannot take the group back', SLOW, () => {
  it('a high-epoch rotation from the removed tablet, seen by a phone that was offline during Remove, is refused: nothing adopted', async () => {
    const { db, laptop, phone, tablet, card } = await laptopPhoneTablet();
    const thief = await stolen(tablet, db);
    tablet.sync.stop();
    phone.sync.stop();

    await laptop.sync.removeDevice(tablet.id);
    expect((await readVault(laptop.db))?.epoch).toBe(2);
    // The tablet, removed, writes a rotation to epoch 1000 that removes the laptop and grants only itself: once after the
    // removal (it is no member there), once beside it at the same seq (an epoch that is not the current + 1).
    const mine = { [tablet.id]: thief.vault.agreement!.publicKey };
    const afterRemoval = foldAll((await readStoredLog(laptop.db))!.entries);
    await putEntry(thief.client, await forgedRemoval(thief, tablet.id, db, afterRemoval, laptop.id, 1000, mine));
    await putEntry(thief.client, await forgedRemoval(thief, tablet.id, db, thief.state, laptop.id, 1000, mine));
    await putEntry(thief.client, await forgedRemoval(thief, tablet.id, db, afterRemoval, laptop.id, 3, { ...mine, [phone.id]: (await readVault(phone.db))!.agreement!.publicKey }));

    await phone.sync.start();
    await eventually('the phone takes the laptop’s rotation', async () => (await readVault(phone.db))?.epoch === 2);
    const log = (await readStoredLog(phone.db))!.entries;
    expect(log.map((e) => e.by)).toEqual([laptop.id, phone.id, tablet.id, laptop.id]);
    expect(foldAll(log).members.get(laptop.id)?.removed).toBe(false);
    expect(foldAll(log).members.get(tablet.id)?.removed).toBe(true);
    // The phone is on the laptop's key, not one the tablet granted: its decision reaches the laptop, which continues once.
    await approveOnPhone(laptop, phone, card.id);
  });

  it('racing rotation: what the removed tablet wrote first, at the next seq and at the old rotation’s id, is not adopted; only the signed removal is', async () => {
    const { db, laptop, phone, tablet, card } = await laptopPhoneTablet();
    const thief = await stolen(tablet, db);
    tablet.sync.stop();
    const mine = { [tablet.id]: thief.vault.agreement!.publicKey };
    // Before the laptop writes its removal, the tablet takes the next seq: a rotation it signs but says the laptop wrote, and
    // a candidate whose content does not hash to its id. (In the old design it took the one id the epoch's rotation had.)
    const forged = await forgedRemoval(thief, tablet.id, db, thief.state, phone.id, 2, mine);
    await putEntry(thief.client, { ...forged, by: laptop.id });
    const squat = await forgedRemoval(thief, tablet.id, db, thief.state, laptop.id, 2, mine);
    expect((await thief.client.createDocument(`member:${String(thief.state.seq + 1).padStart(8, '0')}:${'A'.repeat(43)}`, { m: squat })).outcome).toBe('created');

    await laptop.sync.removeDevice(tablet.id);
    expect((await readVault(laptop.db))?.epoch).toBe(2);
    await eventually('the phone takes the laptop’s rotation', async () => (await readVault(phone.db))?.epoch === 2);
    for (const d of [laptop, phone]) {
      const log = (await readStoredLog(d.db))!.entries;
      expect(log.at(-1)).toMatchObject({ op: 'remove', by: laptop.id, subject: { deviceId: tablet.id }, epoch: 2 });
    }
    // Both hold the laptop's new key, not one the tablet granted: the phone's decision reaches the laptop.
    await approveOnPhone(laptop, phone, card.id);
  });

  it('a 409 on a membership entry is read back: another document at its id is never adopted as it', async () => {
    const { db, laptop, tablet } = await laptopPhoneTablet();
    const thief = await stolen(tablet, db);
    const entry = await forgedRemoval(thief, tablet.id, db, thief.state, laptop.id, 2, {});
    await thief.client.createDocument(memberDocId(entry), { m: { ...entry, at: 0 } });
    await expect(writeEntry(thief.client, entry)).rejects.toBeInstanceOf(MembershipError);
  });
});

describe('keys are pinned from the log, never from a device document', SLOW, () => {
  it('the tablet republishes the phone’s device document with its own key: refused, and the next Remove grants the phone’s pinned key', async () => {
    const { db, laptop, phone, tablet, card } = await laptopPhoneTablet();
    const thief = await stolen(tablet, db);
    const asPhone = new SealedDocuments(thief.keys, db, [], { identity: thief.identity, members: { keyOf: () => undefined } });
    const skippedBefore = (await readSyncStatus(laptop.db))?.skipped ?? 0;
    const republished = await asPhone.seal({
      v: 1,
      kind: 'device',
      id: phone.id,
      n: 1_000,
      from: phone.id,
      record: { v: 1, id: phone.id, name: 'Phone', lastSeenAt: Date.now(), publicKey: thief.vault.agreement!.publicKey },
    });
    // Over the phone's own document (which the phone may be rewriting at that moment: then again).
    await eventually('the tablet’s copy is stored', async () => {
      const rev = (await thief.client.getDocument(republished._id))?._rev;
      return thief.client.putDocument(republished._id, rev, { e: republished.e }).then(() => true, () => false);
    });
    await eventually('the laptop skips and counts it', async () => ((await readSyncStatus(laptop.db))?.skipped ?? 0) > skippedBefore);
    expect((await laptop.db.syncDevices.get(phone.id))?.publicKey).toBeUndefined();

    await laptop.sync.removeDevice(tablet.id);
    const removal = (await readStoredLog(laptop.db))!.entries.at(-1)!;
    expect(removal.op).toBe('remove');
    if (removal.op !== 'remove') return;
    // The tablet's agreement key opens no grant of the rotation; the phone's own does, and it goes on.
    expect(await openGrant(removal.grants[phone.id]!, thief.vault.agreement!.privateKey, grantContext(db, 2, phone.id))).toBeUndefined();
    await eventually('the phone takes the new key', async () => (await readVault(phone.db))?.epoch === 2);
    expect(phone.sync.on).toBe(true);
    await approveOnPhone(laptop, phone, card.id);
  });
});

describe('from is a fact', SLOW, () => {
  it('a decision the tablet writes as the phone is skipped and counted: the card stays pending, nothing runs', async () => {
    const { db, laptop, phone, tablet, card } = await laptopPhoneTablet();
    const thief = await stolen(tablet, db);
    const skippedBefore = (await readSyncStatus(laptop.db))?.skipped ?? 0;
    const forger = new SealedDocuments(thief.keys, db, [], { identity: thief.identity, members: { keyOf: () => undefined } });
    const claim: SyncDocument = {
      v: 1,
      kind: 'decision',
      id: card.id,
      n: 1,
      from: phone.id,
      record: { pausePointId: card.id, conversationId: card.conversationId, decision: { type: 'approve' }, decidedBy: phone.by() },
    };
    const sealed = await forger.seal(claim);
    await thief.client.createDocument(sealed._id, { e: sealed.e });
    await eventually('the laptop skips and counts it', async () => ((await readSyncStatus(laptop.db))?.skipped ?? 0) > skippedBefore);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await laptop.db.pausePoints.get(card.id))?.status).toBe('pending');
    expect(laptop.executions).toEqual([]);
    // The same claim opens with the data key alone: only its signature makes it refused.
    expect(await openDocument(thief.keys, { database: db, docId: sealed._id }, sealed.e)).toMatchObject({ doc: { from: phone.id } });
  });
});

describe('the epoch comes from the signed log', SLOW, () => {
  it('the server sets epoch 1000 in the clear parameters before a join: ignored, and the joiner follows the next rotation', async () => {
    const tamper = async (db: string) => {
      const url = `${bed.server.url}/${db}/${PARAMS_ID}`;
      const params = (await (await fetch(url, { headers: auth() })).json()) as Record<string, unknown>;
      expect((await fetch(url, { method: 'PUT', headers: auth(), body: JSON.stringify({ ...params, epoch: 1000 }) })).ok).toBe(true);
    };
    const { laptop, phone, tablet, card } = await laptopPhoneTablet(tamper);
    expect((await readVault(phone.db))?.epoch).toBe(1);
    await laptop.sync.removeDevice(tablet.id);
    await eventually('the phone follows the rotation to epoch 2', async () => (await readVault(phone.db))?.epoch === 2);
    await approveOnPhone(laptop, phone, card.id);
  });
});
