import { z } from 'zod';
import { PublicKeyJwk } from '../../storage/records/public-key-jwk.ts';
import { newIv, openGcm, sealGcm, IV_BYTES, TAG_BYTES } from './aes-gcm.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { base64UrlField } from './base64url-field.ts';
import { DATA_KEY_BYTES } from './data-key.ts';
import { utf8 } from './utf8.ts';

/**
 * A new data key, granted to one device: how a key rotation reaches the
 * devices that stay paired, and only them. Each device has an ECDH P-256 key
 * pair of its own (its private key non-extractable, kept in its vault; its
 * public key in its device document); a grant is the new data key sealed
 * under AES-256-GCM with a key agreed between a fresh ephemeral key pair and
 * the device's public key (ECDH, then HKDF-SHA-256). A removed device holds
 * the old data key, so it can read the rotation's document, but no grant in
 * it opens with its private key.
 */

export const KeyGrant = z.object({ v: z.literal(1), epk: PublicKeyJwk, iv: base64UrlField(IV_BYTES), ct: base64UrlField(DATA_KEY_BYTES + TAG_BYTES) });
export type KeyGrant = z.infer<typeof KeyGrant>;

export interface AgreementKeys {
  privateKey: CryptoKey;
  publicKey: PublicKeyJwk;
}

const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const;
const GRANT_INFO = utf8('pausepoint/sync/grant');
const HKDF_SALT = new Uint8Array(32);

/** This device's key pair for grants: the private key cannot be read back, the public one is shared. */
export async function newAgreementKeys(): Promise<AgreementKeys> {
  const pair = (await crypto.subtle.generateKey(ECDH, false, ['deriveBits'])) as CryptoKeyPair;
  return { privateKey: pair.privateKey, publicKey: await exportPublic(pair.publicKey) };
}

async function exportPublic(key: CryptoKey): Promise<PublicKeyJwk> {
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', key);
  return PublicKeyJwk.parse({ kty, crv, x, y });
}

async function agreedKey(privateKey: CryptoKey, publicKey: PublicKeyJwk): Promise<CryptoKey> {
  const theirs = await crypto.subtle.importKey('jwk', { ...PublicKeyJwk.parse(publicKey), ext: true }, ECDH, true, []);
  const shared = await crypto.subtle.deriveBits({ name: 'ECDH', public: theirs }, privateKey, 256);
  const master = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info: GRANT_INFO }, master, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** `raw` sealed for the holder of `to`'s private key; `context` (what the grant is for) is bound in as additional data. */
export async function grantKey(raw: Uint8Array, to: PublicKeyJwk, context: string): Promise<KeyGrant> {
  if (raw.length !== DATA_KEY_BYTES) throw new RangeError(`A sync data key is ${DATA_KEY_BYTES} bytes, not ${raw.length}.`);
  const ephemeral = (await crypto.subtle.generateKey(ECDH, true, ['deriveBits'])) as CryptoKeyPair;
  const key = await agreedKey(ephemeral.privateKey, to);
  const iv = newIv();
  const ct = await sealGcm(key, iv, raw, utf8(context));
  return { v: 1, epk: await exportPublic(ephemeral.publicKey), iv: toBase64Url(iv), ct: toBase64Url(ct) };
}

/** The granted key, or undefined when the grant is not for this private key (or not for `context`). */
export async function openGrant(grant: KeyGrant, privateKey: CryptoKey, context: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const parsed = KeyGrant.safeParse(grant);
  if (!parsed.success) return undefined;
  const key = await agreedKey(privateKey, parsed.data.epk);
  return openGcm(key, fromBase64Url(parsed.data.iv), fromBase64Url(parsed.data.ct), utf8(context));
}
