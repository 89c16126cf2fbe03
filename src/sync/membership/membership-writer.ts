import { signCanonical } from '../../identity/device-signature.ts';
import type { DeviceIdentity } from '../../identity/device-identity.ts';
import type { CouchClient } from '../couch/couch-client.ts';
import type { SyncKeys } from '../crypto/data-key.ts';
import type { PublicKeyJwk } from '../../storage/records/public-key-jwk.ts';
import { entryHash, type MembershipEntry, type Unsigned } from './membership-entry.ts';
import { followLog, MembershipError, writeEntry, type FollowOptions, type Followed } from './membership-log.ts';
import { proofOf, type MembershipState } from './membership-state.ts';

export async function signEntry<E extends MembershipEntry>(identity: DeviceIdentity, unsigned: Unsigned<E>): Promise<E> {
  return { ...unsigned, sig: await signCanonical(identity.privateKey, unsigned) } as unknown as E;
}

/** This device as an entry names it. */
export interface Self {
  deviceId: string;
  identity: DeviceIdentity;
  agreementKey: PublicKeyJwk;
}

/**
 * `found` or `add` for this device, proven under `keys` and signed by it.
 * `keys` is the data key of the head's epoch, or for a log founded now, of
 * `epoch` (1 for a new database; a device that synced before logs existed
 * founds at its own).
 */
export async function joinEntry(self: Self, state: MembershipState, keys: SyncKeys, epoch: number, now: number, invitedBy?: string): Promise<MembershipEntry> {
  const subject = { deviceId: self.deviceId, signingKey: self.identity.publicKey, agreementKey: self.agreementKey };
  const base = { v: 1 as const, seq: state.seq + 1, prev: state.head, by: self.deviceId, at: now, subject };
  const unsigned =
    state.seq === 0
      ? { ...base, op: 'found' as const, epoch, proof: '' }
      : { ...base, op: 'add' as const, epoch: state.epoch, proof: '', ...(invitedBy ? { invitedBy } : {}) };
  unsigned.proof = await proofOf(keys, unsigned);
  return signEntry(self.identity, unsigned);
}

/**
 * Appends the entry `make` writes after the head, reading the log first and
 * again after: if another valid entry won that seq, `make` is asked again
 * after the new head (it answers undefined when its change is no longer
 * needed, e.g. the device it removes was removed meanwhile).
 */
export async function appendEntry(
  client: CouchClient,
  from: MembershipState,
  options: FollowOptions,
  make: (state: MembershipState) => Promise<MembershipEntry | undefined>,
): Promise<Followed & { written?: MembershipEntry }> {
  let state = from;
  const adopted: MembershipEntry[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await followLog(client, state, options);
    adopted.push(...before.adopted);
    state = before.state;
    const entry = await make(state);
    if (!entry) return { state, adopted };
    await writeEntry(client, entry);
    const after = await followLog(client, state, options);
    adopted.push(...after.adopted);
    state = after.state;
    if (after.adopted.some((e) => entryHash(e) === entryHash(entry))) return { state, adopted, written: entry };
  }
  throw new MembershipError('Other devices kept changing the membership log: try again.');
}
