import { utf8 } from './utf8.ts';

/**
 * The sync data key: 32 random bytes shared by every paired device, never sent
 * in the clear (wrapped under the passphrase on the server, sealed under the
 * device's vault key at rest, under the pairing code in a pairing link). The
 * working keys are derived from it and are non-extractable: once derived, no
 * script can read them back.
 */

export const DATA_KEY_BYTES = 32;

export type SyncKeys = {
  /** AES-256-GCM, encrypt/decrypt: the documents' bodies. */
  seal: CryptoKey;
  /** HMAC-SHA-256, sign: the documents' ids. */
  name: CryptoKey;
};

/**
 * HKDF's salt: 32 zero bytes, which is what RFC 5869 §2.2 uses when no salt is
 * given. A salt strengthens extraction from a secret that is not uniformly
 * random; the data key is, and the `info` labels already keep the two uses
 * apart. Fixed, so every device derives the same keys from the same data key.
 */
const HKDF_SALT = new Uint8Array(32);
export const SEAL_INFO = 'pausepoint/sync/seal';
export const NAME_INFO = 'pausepoint/sync/name';

export function newDataKey(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(DATA_KEY_BYTES));
}

export async function deriveSyncKeys(raw: Uint8Array): Promise<SyncKeys> {
  if (raw.length !== DATA_KEY_BYTES) throw new RangeError(`A sync data key is ${DATA_KEY_BYTES} bytes, not ${raw.length}.`);
  const master = await crypto.subtle.importKey('raw', new Uint8Array(raw), 'HKDF', false, ['deriveKey']);
  const [seal, name] = await Promise.all([
    crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info: utf8(SEAL_INFO) },
      master,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    ),
    // length: 256 — without it WebCrypto derives an HMAC key of the hash's block size (512 bits).
    crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info: utf8(NAME_INFO) },
      master,
      { name: 'HMAC', hash: 'SHA-256', length: 256 },
      false,
      ['sign'],
    ),
  ]);
  return { seal, name };
}
