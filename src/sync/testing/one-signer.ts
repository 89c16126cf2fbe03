import { newDeviceIdentity, type DeviceIdentity } from '../../identity/device-identity.ts';
import type { SyncKeys } from '../crypto/data-key.ts';
import type { FollowedMembership } from '../membership/live-membership.ts';
import { SealedDocuments } from '../sealed-documents.ts';

/**
 * For tests that play several devices in one process: one signing key that
 * every device id is pinned to, and a membership that never changes. What
 * signatures prove is tested against a real log in sync-across-devices.test.ts.
 */
export async function oneSigner(): Promise<{ identity: DeviceIdentity; membership: FollowedMembership }> {
  const identity = await newDeviceIdentity();
  return { identity, membership: { keyOf: () => identity.publicKey, follow: () => Promise.resolve({ removedHere: false }) } };
}

/** Documents sealed and signed under `keys` for `database` as any device, opened as if each were a member. */
export async function sealedForTests(keys: SyncKeys, database: string): Promise<{ sealed: SealedDocuments; membership: FollowedMembership }> {
  const { identity, membership } = await oneSigner();
  return { sealed: new SealedDocuments(keys, database, [], { identity, members: membership }), membership };
}
