import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { readRules } from '../storage/approval-rules-repo.ts';
import { deriveSyncKeys } from './crypto/data-key.ts';
import { openForDevice } from './crypto/device-vault.ts';
import { documentId } from './crypto/document-id.ts';
import { openPairing } from './crypto/pairing-blob.ts';
import { pairingBlobFrom } from './crypto/pairing-link.ts';
import { readVault } from './sync-store.ts';
import { eventually, type SyncedDevice } from './testing/synced-device.ts';
import { syncTestbed, TEST_AUTH, TEST_PASSPHRASE, TEST_USER } from './testing/sync-testbed.ts';

/**
 * The rollback guard (rollback-heads.ts) against a real CouchDB-protocol
 * server that misbehaves: it withholds a rule's removal, or serves a card's
 * old `pending` version again, to a device that has never seen either. The
 * pairing link names what the inviting device held; the new device refuses
 * anything older.
 */

const bed = syncTestbed('rollback');
const USER = TEST_USER;
const auth = TEST_AUTH;

const transfer = (amount: number, to: string) => ({ calls: [{ name: 'transfer', args: { amount, to } }] });

const device = bed.device;

async function laptopSyncing() {
  const db = await bed.database();
  const laptop = await device('Laptop');
  expect(await laptop.sync.turnOn({ deviceName: 'Laptop', serverUrl: bed.server.url, database: db, ...USER, passphrase: TEST_PASSPHRASE })).toEqual({ ok: true });
  return { db, laptop };
}

/** The server's copy of the document a record of the laptop's went to, once pushed at least at `n`. */
async function pushed(db: string, laptop: SyncedDevice, key: string, n = 1) {
  const state = await eventually(`${key} is pushed`, async () => {
    const s = await laptop.db.syncDocs.get(key);
    return s?.rev && s.n >= n ? s : undefined;
  });
  return { docId: state.docId, doc: (await (await fetch(`${bed.server.url}/${db}/${state.docId}`, { headers: auth })).json()) as { _rev: string; e: unknown } };
}

async function join(laptop: SyncedDevice, phone: SyncedDevice) {
  const invite = await laptop.sync.addDevice();
  return { invite, joined: await phone.sync.join({ blob: pairingBlobFrom(new URL(invite.link).hash)!, code: invite.code, deviceName: 'Phone' }) };
}

/** The phone runs a transfer of its own: whether a rule lets it by, or it asks. */
async function phonesTransfer(phone: SyncedDevice) {
  phone.model.push(transfer(250, 'Bob'), { text: 'Sent.' });
  await phone.engine.send(null, 'pay Bob');
  await phone.engine.whenIdle();
  return { ran: phone.executions.length, pending: await phone.db.pausePoints.where('status').equals('pending').count() };
}

describe('a new device and a server that rolls it back', { timeout: 60_000 }, () => {
  it('a removal withheld by the server: the rule looks alive on the new device, but does not decide; a card appears', async () => {
    const { db, laptop } = await laptopSyncing();
    const rule = await laptop.engine.addRule({ effect: 'allow', tool: 'transfer', scope: { kind: 'everywhere' }, source: 'settings' }, laptop.by());
    await laptop.engine.removeRule(rule.id, laptop.by());
    const removal = await pushed(db, laptop, `ruleEvent:${laptop.id}:2`);
    await pushed(db, laptop, `ruleEvent:${laptop.id}:1`);
    // The server withholds the removal from whoever asks from now on.
    const deleted = await fetch(`${bed.server.url}/${db}/${removal.docId}?rev=${removal.doc._rev}`, { method: 'DELETE', headers: auth });
    expect(deleted.ok).toBe(true);

    const phone = await device('Phone');
    expect((await join(laptop, phone)).joined).toEqual({ ok: true });
    await eventually('the rule’s making reaches the phone', async () => (await phone.db.approvalRules.get(rule.id))?.enabled === true);
    expect((await readRules(phone.db)).heldBack).toBe(true);
    expect(await phonesTransfer(phone)).toEqual({ ran: 0, pending: 1 });
  });

  it('a new device that holds every rule event its link names: its rules decide', async () => {
    const { db, laptop } = await laptopSyncing();
    const rule = await laptop.engine.addRule({ effect: 'allow', tool: 'transfer', scope: { kind: 'everywhere' }, source: 'settings' }, laptop.by());
    await pushed(db, laptop, `ruleEvent:${laptop.id}:1`);
    const phone = await device('Phone');
    expect((await join(laptop, phone)).joined).toEqual({ ok: true });
    await eventually('the rule reaches the phone, and its floors are met', async () => (await phone.db.approvalRules.get(rule.id)) !== undefined && !(await readRules(phone.db)).heldBack);
    expect(await phone.db.settings.get('ruleFloors')).toBeUndefined();
    expect(await phonesTransfer(phone)).toEqual({ ran: 1, pending: 0 });
  });

  it('a card’s old pending version replayed by the server: the new device does not take it', async () => {
    const { db, laptop } = await laptopSyncing();
    laptop.model.push(transfer(48_173, 'Ada Lovelace'), { text: 'Sent.' });
    await laptop.engine.send(null, 'pay Ada');
    await laptop.engine.whenIdle();
    const [card] = await laptop.db.pausePoints.where('status').equals('pending').toArray();
    const pending = await pushed(db, laptop, `pausePoint:${card!.id}`);
    await laptop.engine.decide(card!.id, { type: 'approve' }, laptop.by());
    await laptop.engine.whenIdle();
    const decided = await pushed(db, laptop, `pausePoint:${card!.id}`, 2);
    // The server puts the card's pending version back, as a new revision of its document.
    const replayed = await fetch(`${bed.server.url}/${db}/${decided.docId}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ _rev: decided.doc._rev, e: pending.doc.e }) });
    expect(replayed.ok).toBe(true);

    const phone = await device('Phone');
    expect((await join(laptop, phone)).joined).toEqual({ ok: true });
    await eventually('the conversation reaches the phone', async () => (await phone.db.conversations.get(card!.conversationId)) !== undefined);
    await phone.sync.retryNow();
    await eventually('the phone has read the whole feed', async () => ((await phone.db.settings.get('syncStatus'))?.value as { kind?: string })?.kind === 'up_to_date');
    expect(await phone.db.pausePoints.get(card!.id)).toBeUndefined();
    expect(await phone.db.pausePoints.where('status').equals('pending').count()).toBe(0);
  });

  it('the heads the link names missing on the server: the new device does not join', async () => {
    const { db, laptop } = await laptopSyncing();
    const invite = await laptop.sync.addDevice();
    const blob = pairingBlobFrom(new URL(invite.link).hash)!;
    const { heads } = await openPairing(blob, invite.code);
    const vault = (await readVault(laptop.db))!;
    const headsId = await documentId(await deriveSyncKeys(await openForDevice(vault.vaultKey, vault.sealed)), 'heads', heads!);
    const there = (await (await fetch(`${bed.server.url}/${db}/${headsId}`, { headers: auth })).json()) as { _rev: string };
    expect((await fetch(`${bed.server.url}/${db}/${headsId}?rev=${there._rev}`, { method: 'DELETE', headers: auth })).ok).toBe(true);
    const phone = await device('Phone');
    expect(await phone.sync.join({ blob, code: invite.code, deviceName: 'Phone' })).toMatchObject({ ok: false, refusal: { kind: 'bad_link' } });
    expect(await phone.db.settings.get('sync')).toBeUndefined();
  });
});
