import { sha256 } from '@noble/hashes/sha2.js';
import { z } from 'zod';
import { canonicalJson } from '../../audit/canonical-json.ts';
import { SigningKeyJwk } from '../../identity/signing-key-jwk.ts';
import { PublicKeyJwk } from '../../storage/records/public-key-jwk.ts';
import { toBase64Url } from '../crypto/base64url.ts';
import { KeyGrant } from '../crypto/key-grant.ts';
import { utf8 } from '../crypto/utf8.ts';

/**
 * One entry of the membership log: who joined the devices that sync, who
 * removed whom, and the data key's epoch after it. Entries are signed,
 * hash-linked (`prev` is the hash of the entry before, or GENESIS for the
 * first), and stored in the clear on the server, created once each: the
 * log must be readable by a device that holds only the newest data key (one
 * paired after a rotation), and it holds no name, only ids and public keys.
 *
 * - `found` (seq 1): the first device, signed by itself.
 * - `add`: a device joins; it signs its own entry (it holds the key it
 *   names), and `proof` (an HMAC under the current data key) shows it holds
 *   that key too: it was given a pairing link, or knows the passphrase while
 *   the key is still the first. A removed device holds only older keys.
 * - `remove`: a member removes another; it carries the rotation (the next
 *   epoch's data key granted to each member that stays, at the agreement key
 *   pinned in this log, and the parameters' check under the new key).
 */
export const HASH = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a SHA-256 hash is 43 base64url characters');
const DeviceId = z.string().min(1).max(200);

export const MemberSubject = z.object({ deviceId: DeviceId, signingKey: SigningKeyJwk, agreementKey: PublicKeyJwk });
export type MemberSubject = z.infer<typeof MemberSubject>;

const header = {
  v: z.literal(1),
  seq: z.number().int().positive(),
  prev: HASH,
  epoch: z.number().int().positive(),
  /** The signer's device id. */
  by: DeviceId,
  /** The signer's clock: shown, never compared. */
  at: z.number(),
  /** signCanonical over every other member of the entry, by the signer's pinned signing key. */
  sig: z.string().max(100),
};

export const MembershipEntry = z.discriminatedUnion('op', [
  z.object({ ...header, op: z.literal('found'), subject: MemberSubject, proof: HASH }),
  z.object({ ...header, op: z.literal('add'), subject: MemberSubject, proof: HASH, invitedBy: DeviceId.optional() }),
  z.object({
    ...header,
    op: z.literal('remove'),
    subject: z.object({ deviceId: DeviceId }),
    /** The parameters' check sealed under the new key (sync-setup.ts CHECK). */
    check: z.unknown(),
    grants: z.record(z.string(), KeyGrant),
  }),
]);
export type MembershipEntry = z.infer<typeof MembershipEntry>;
export type Unsigned<E extends MembershipEntry = MembershipEntry> = E extends MembershipEntry ? Omit<E, 'sig'> : never;

/** The `prev` of the first entry: a fixed value nobody can sign a different log under. */
export const GENESIS = toBase64Url(sha256(utf8('pausepoint/sync/membership/genesis')));

/** The entry's hash: SHA-256 of its canonical JSON, signature included (what `prev` and the document id name). */
export function entryHash(entry: MembershipEntry): string {
  return toBase64Url(sha256(utf8(canonicalJson(entry))));
}

/** Server document ids sort by seq: zero-padded, so `_all_docs` reads the log in order. */
export const MEMBER_PREFIX = 'member:';
export function memberDocId(entry: MembershipEntry): string {
  return `${MEMBER_PREFIX}${String(entry.seq).padStart(8, '0')}:${entryHash(entry)}`;
}

export function memberDocPrefix(seq: number): string {
  return `${MEMBER_PREFIX}${String(seq).padStart(8, '0')}:`;
}

/** What `sig` covers: the entry without it. */
export function signedPart(entry: MembershipEntry | Unsigned): Unsigned {
  const { sig: _sig, ...rest } = entry as MembershipEntry;
  return rest as Unsigned;
}

/** What `proof` covers: the entry without `proof` and `sig`, under a label no document id uses. */
export function provenPart(entry: MembershipEntry | Unsigned): Uint8Array<ArrayBuffer> {
  const { sig: _sig, proof: _proof, ...rest } = entry as MembershipEntry & { proof?: string };
  return utf8(`pausepoint.membership\n${canonicalJson(rest)}`);
}
