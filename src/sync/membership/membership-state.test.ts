import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newDeviceIdentity, type DeviceIdentity } from '../../identity/device-identity.ts';
import { openTestDb } from '../../storage/testing/open-test-db.ts';
import { deriveSyncKeys, newDataKey, type SyncKeys } from '../crypto/data-key.ts';
import { grantKey, newAgreementKeys, type AgreementKeys } from '../crypto/key-grant.ts';
import { grantContext } from '../sync-document.ts';
import type { MembershipEntry } from './membership-entry.ts';
import { EMPTY_MEMBERSHIP, fold, refusal, type MembershipState } from './membership-state.ts';
import { appendStoredLog, readMembership } from './membership-store.ts';
import { joinEntry, signEntry, type Self } from './membership-writer.ts';

interface Device extends Self {
  agreement: AgreementKeys;
}
async function device(deviceId: string): Promise<Device> {
  const identity: DeviceIdentity = await newDeviceIdentity();
  const agreement = await newAgreementKeys();
  return { deviceId, identity, agreement, agreementKey: agreement.publicKey };
}

let keys: SyncKeys;
let laptop: Device;
let phone: Device;
let tablet: Device;
beforeAll(async () => {
  keys = await deriveSyncKeys(newDataKey());
  [laptop, phone, tablet] = await Promise.all([device('laptop'), device('phone'), device('tablet')]);
});
const keyOf = (epoch: number) => (epoch === 1 ? keys : undefined);

async function removal(by: Device, state: MembershipState, removed: string, epoch = state.epoch + 1): Promise<MembershipEntry> {
  const raw = newDataKey();
  const grants: Record<string, Awaited<ReturnType<typeof grantKey>>> = {};
  for (const m of state.members.values()) if (!m.removed && m.deviceId !== removed) grants[m.deviceId] = await grantKey(raw, m.agreementKey, grantContext('db', epoch, m.deviceId));
  return signEntry(by.identity, { v: 1, op: 'remove', seq: state.seq + 1, prev: state.head, epoch, by: by.deviceId, at: 1, subject: { deviceId: removed }, check: {}, grants });
}

/** Laptop founds, phone and tablet join: a log of three. */
async function threeMembers(): Promise<{ entries: MembershipEntry[]; state: MembershipState }> {
  const entries: MembershipEntry[] = [];
  let state = EMPTY_MEMBERSHIP;
  for (const d of [laptop, phone, tablet]) {
    const entry = await joinEntry(d, state, keys, 1, 1);
    expect(await refusal(state, entry, keyOf)).toBeUndefined();
    entries.push(entry);
    state = fold(state, entry);
  }
  return { entries, state };
}

describe('the membership log', () => {
  it('founds, adds and removes: a removal is the next epoch, signed by a member, and pins nothing new', async () => {
    const { state } = await threeMembers();
    expect(state.epoch).toBe(1);
    expect([...state.members.keys()]).toEqual(['laptop', 'phone', 'tablet']);
    const remove = await removal(laptop, state, 'tablet');
    expect(await refusal(state, remove, keyOf)).toBeUndefined();
    const after = fold(state, remove);
    expect(after.epoch).toBe(2);
    expect(after.members.get('tablet')?.removed).toBe(true);
    expect(after.members.get('laptop')?.signingKey).toEqual(laptop.identity.publicKey);
  });

  it('refuses what a removed device, a forger or a stale key writes', async () => {
    const { state } = await threeMembers();
    const after = fold(state, await removal(laptop, state, 'tablet'));
    // The removed tablet removes the laptop, at the next epoch: it is no member any more.
    expect(await refusal(after, await removal(tablet, after, 'laptop'), keyOf)).toBe('not signed by a member');
    // A member's rotation is only ever the current epoch + 1.
    expect(await refusal(after, await removal(phone, after, 'laptop', 1000), keyOf)).toBe('a rotation is the current epoch + 1');
    // Signed by the tablet, claiming the laptop wrote it.
    const forged = await removal(tablet, state, 'phone');
    expect(await refusal(state, { ...forged, by: 'laptop' }, keyOf)).toBe('bad signature');
    // Not after the head: a candidate built on another branch.
    expect(await refusal(after, { ...(await removal(laptop, state, 'phone')) }, keyOf)).toBe('not after the head');
    // A device adding itself under a key it does not hold: its proof does not verify.
    const stranger = await device('stranger');
    const add = await joinEntry(stranger, after, await deriveSyncKeys(newDataKey()), 2, 1);
    expect(await refusal(after, add, (e) => (e === 2 ? keys : undefined))).toBe('bad proof');
    // Nor may it take a pinned device's id, or a member's key.
    const again = await joinEntry({ ...stranger, deviceId: 'phone' }, state, keys, 1, 1);
    expect(await refusal(state, again, keyOf)).toBe('a device id is added once');
    const copied = await joinEntry({ ...phone, deviceId: 'phone-2' }, state, keys, 1, 1);
    expect(await refusal(state, copied, keyOf)).toBe('that key belongs to another device');
  });

  it('readMembership lists every device the stored log names, with its pinned key and its own name', async () => {
    const { db, cleanup } = await openTestDb();
    try {
      expect(await readMembership(db)).toEqual({ entries: [], members: [] });
      const { entries, state } = await threeMembers();
      const remove = await removal(laptop, state, 'tablet');
      await appendStoredLog(db, 'db', [...entries, remove]);
      await db.syncDevices.put({ v: 1, id: 'phone', name: 'Phone', lastSeenAt: 1 });
      const read = await readMembership(db);
      expect(read.entries).toHaveLength(4);
      expect(read.members).toEqual([
        { deviceId: 'laptop', name: 'laptop', keyId: laptop.identity.keyId, publicKey: laptop.identity.publicKey, removed: false },
        { deviceId: 'phone', name: 'Phone', keyId: phone.identity.keyId, publicKey: phone.identity.publicKey, removed: false },
        { deviceId: 'tablet', name: 'tablet', keyId: tablet.identity.keyId, publicKey: tablet.identity.publicKey, removed: true },
      ]);
    } finally {
      await cleanup();
    }
  });
});
