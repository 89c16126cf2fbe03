import { z } from 'zod';
import { newIv, openGcm, sealGcm, IV_BYTES, TAG_BYTES } from './aes-gcm.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { base64UrlField } from './base64url-field.ts';
import { DeviceVaultError } from './crypto-errors.ts';
import { DATA_KEY_BYTES } from './data-key.ts';
import { utf8 } from './utf8.ts';

/**
 * The data key at rest on this device: sealed under a vault key that is a
 * non-extractable AES-GCM CryptoKey, stored in IndexedDB as the object itself
 * (CryptoKey is serializable: the structured clone keeps the key and its
 * non-extractability). What this keeps the data key from is a stored row read
 * as data — a backup, an export, a bug that leaks a record — which holds the
 * sealed bytes but no key bytes. It does not keep it from script running in
 * this origin, nor from someone with this browser profile's files (the
 * browser keeps the key's bytes in its own storage): see docs/security.md.
 *
 * Checked 2026-12-02: on Node 20 (20.20.2) `structuredClone` and a
 * fake-indexeddb 6.2.8 put/get (device-vault.test.ts), and Dexie 4 over it,
 * keep a CryptoKey usable and non-extractable, so the worker's code is tested
 * as it runs; so does Chromium 156's own IndexedDB from a module worker.
 */

export function newVaultKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

export const SealedDataKey = z.object({
  v: z.literal(1),
  iv: base64UrlField(IV_BYTES),
  ct: base64UrlField(DATA_KEY_BYTES + TAG_BYTES),
});
export type SealedDataKey = z.infer<typeof SealedDataKey>;

/** Keeps these bytes from opening as anything but this device's data key. */
const AAD = utf8('pausepoint.device-data-key');

export async function sealForDevice(vaultKey: CryptoKey, raw: Uint8Array): Promise<SealedDataKey> {
  if (raw.length !== DATA_KEY_BYTES) throw new RangeError(`A sync data key is ${DATA_KEY_BYTES} bytes, not ${raw.length}.`);
  const iv = newIv();
  const ct = await sealGcm(vaultKey, iv, raw, AAD);
  return { v: 1, iv: toBase64Url(iv), ct: toBase64Url(ct) };
}

/** The data key; DeviceVaultError when the stored shape is off or this vault key did not seal it. */
export async function openForDevice(vaultKey: CryptoKey, sealed: SealedDataKey): Promise<Uint8Array<ArrayBuffer>> {
  // Parsed again: it was read back from storage.
  const parsed = SealedDataKey.safeParse(sealed);
  if (!parsed.success) throw new DeviceVaultError('malformed', "This device's stored sync key is not in a form this app reads.", { cause: parsed.error });
  const raw = await openGcm(vaultKey, fromBase64Url(parsed.data.iv), fromBase64Url(parsed.data.ct), AAD);
  if (raw === undefined) throw new DeviceVaultError('decrypt', "This device's stored sync key does not open with its vault key.");
  return raw;
}
