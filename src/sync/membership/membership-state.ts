import { verifyCanonical } from '../../identity/device-signature.ts';
import { keyIdOf, type SigningKeyJwk } from '../../identity/signing-key-jwk.ts';
import { toBase64Url } from '../crypto/base64url.ts';
import type { SyncKeys } from '../crypto/data-key.ts';
import type { PublicKeyJwk } from '../../storage/records/public-key-jwk.ts';
import { entryHash, GENESIS, provenPart, signedPart, type MembershipEntry, type Unsigned } from './membership-entry.ts';

/** A device as the membership log pins it: its keys never change, and a removed id never returns. */
export interface Member {
  deviceId: string;
  keyId: string;
  signingKey: SigningKeyJwk;
  agreementKey: PublicKeyJwk;
  removed: boolean;
}

/** The log folded: its head, the data key's epoch after it, and every device it ever named. */
export interface MembershipState {
  seq: number;
  head: string;
  epoch: number;
  members: ReadonlyMap<string, Member>;
}

export const EMPTY_MEMBERSHIP: MembershipState = { seq: 0, head: GENESIS, epoch: 0, members: new Map() };

/** The data keys by epoch, as far as this device holds them: what an entry's proof is checked under. */
export type KeyOfEpoch = (epoch: number) => SyncKeys | undefined;

/**
 * Why `entry` may not follow `state`, or undefined when it may. `trusted`:
 * the entry is in a prefix whose head hash came from a trusted channel (the
 * pairing link), so its proof, made under a key this device never held, is not
 * checked again; its signature and its place in the log still are.
 */
export async function refusal(state: MembershipState, entry: MembershipEntry, keyOf: KeyOfEpoch, trusted = false): Promise<string | undefined> {
  if (entry.seq !== state.seq + 1 || entry.prev !== state.head) return 'not after the head';
  const signer = signerOf(state, entry);
  if (typeof signer === 'string') return signer;
  if (!(await verifyCanonical(signer, signedPart(entry), entry.sig))) return 'bad signature';
  if (entry.op === 'remove') return undefined;
  if (trusted) return undefined;
  const keys = keyOf(entry.epoch);
  if (!keys) return 'no key for its epoch';
  return (await proofOf(keys, entry)) === entry.proof ? undefined : 'bad proof';
}

/** The key that must have signed `entry`, or why none may. */
function signerOf(state: MembershipState, entry: MembershipEntry): SigningKeyJwk | string {
  const { members } = state;
  switch (entry.op) {
    case 'found':
      if (state.seq !== 0) return 'a log is founded once';
      if (entry.by !== entry.subject.deviceId) return 'founded by another device';
      return entry.subject.signingKey;
    case 'add': {
      if (state.seq === 0) return 'no log to add to';
      if (entry.by !== entry.subject.deviceId) return 'an add is signed by the device it adds';
      if (entry.epoch !== state.epoch) return 'not at the current epoch';
      if (members.has(entry.subject.deviceId)) return 'a device id is added once';
      const keyId = keyIdOf(entry.subject.signingKey);
      if ([...members.values()].some((m) => m.keyId === keyId)) return 'that key belongs to another device';
      return entry.subject.signingKey;
    }
    case 'remove': {
      const by = members.get(entry.by);
      if (!by || by.removed) return 'not signed by a member';
      const target = members.get(entry.subject.deviceId);
      if (!target || target.removed || target.deviceId === by.deviceId) return 'not a member another can remove';
      if (entry.epoch !== state.epoch + 1) return 'a rotation is the current epoch + 1';
      const staying = [...members.values()].filter((m) => !m.removed && m.deviceId !== target.deviceId).map((m) => m.deviceId);
      const granted = Object.keys(entry.grants);
      if (granted.length !== staying.length || !staying.every((id) => Object.hasOwn(entry.grants, id))) return 'grants are not exactly the staying members';
      return by.signingKey;
    }
  }
}

/** `entry` folded into `state`; call only after `refusal` found nothing. */
export function fold(state: MembershipState, entry: MembershipEntry): MembershipState {
  const members = new Map(state.members);
  if (entry.op === 'remove') {
    const target = members.get(entry.subject.deviceId)!;
    members.set(target.deviceId, { ...target, removed: true });
  } else {
    const { deviceId, signingKey, agreementKey } = entry.subject;
    members.set(deviceId, { deviceId, keyId: keyIdOf(signingKey), signingKey, agreementKey, removed: false });
  }
  return { seq: entry.seq, head: entryHash(entry), epoch: entry.epoch, members };
}

/** A stored log (already checked when it was adopted) folded again from the start. */
export function foldAll(entries: readonly MembershipEntry[]): MembershipState {
  return entries.reduce(fold, EMPTY_MEMBERSHIP);
}

/** HMAC under the epoch's name key of the entry without its proof and signature. */
export async function proofOf(keys: SyncKeys, entry: MembershipEntry | Unsigned): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', keys.name, provenPart(entry))));
}

/** The signing key of a member that may write now; undefined for strangers and removed devices. */
export function currentKeyOf(state: MembershipState, deviceId: string): SigningKeyJwk | undefined {
  const member = state.members.get(deviceId);
  return member && !member.removed ? member.signingKey : undefined;
}
