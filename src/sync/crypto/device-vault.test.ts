import { createCipheriv } from 'node:crypto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { DeviceVaultError } from './crypto-errors.ts';
import { newVaultKey, openForDevice, SealedDataKey, sealForDevice } from './device-vault.ts';
import { flipped, KNOWN_DATA_KEY, KNOWN_IV } from './testing/known-answer.ts';

const VAULT_BYTES = Uint8Array.from({ length: 32 }, (_, index) => 0xc0 ^ index);

async function reason(promise: Promise<unknown>): Promise<DeviceVaultError['reason']> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof DeviceVaultError)) throw new Error(`expected a DeviceVaultError, got ${String(error)}`);
  return error.reason;
}

/** Puts a value under `key` in a fresh fake IndexedDB store and reads it back, the way the worker keeps the vault key. */
async function throughIndexedDb(value: unknown): Promise<unknown> {
  const factory = new IDBFactory();
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open('vault-test', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('settings');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise<void>((resolve, reject) => {
    const transaction = db.transaction('settings', 'readwrite');
    transaction.objectStore('settings').put(value, 'vault');
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
  });
  return new Promise((resolve, reject) => {
    const request = db.transaction('settings').objectStore('settings').get('vault');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

describe('newVaultKey', () => {
  it('is a non-extractable AES-256-GCM key', async () => {
    const key = await newVaultKey();
    expect(key.extractable).toBe(false);
    expect(key.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
    expect([...key.usages].sort()).toEqual(['decrypt', 'encrypt']);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });

  it("survives Node 20's structuredClone and a fake-indexeddb put and get, still usable and still non-extractable", async () => {
    const key = await newVaultKey();
    const sealed = await sealForDevice(key, KNOWN_DATA_KEY);
    const cloned = structuredClone(key);
    expect(cloned).toBeInstanceOf(CryptoKey);
    expect(await openForDevice(cloned, sealed)).toEqual(KNOWN_DATA_KEY);

    const stored = await throughIndexedDb({ vaultKey: key, sealed });
    const { vaultKey, sealed: readBack } = stored as { vaultKey: CryptoKey; sealed: SealedDataKey };
    expect(vaultKey).toBeInstanceOf(CryptoKey);
    expect(vaultKey.extractable).toBe(false);
    expect(await openForDevice(vaultKey, SealedDataKey.parse(readBack))).toEqual(KNOWN_DATA_KEY);
  });
});

describe('sealForDevice and openForDevice', () => {
  it('open the known sealed key: AES-256-GCM, additional data `pausepoint.device-data-key`', async () => {
    // Sealed by Node under a fixed vault key's bytes: the independent computation, checked in.
    const cipher = createCipheriv('aes-256-gcm', VAULT_BYTES, KNOWN_IV);
    cipher.setAAD(Buffer.from('pausepoint.device-data-key'));
    const ct = Buffer.concat([cipher.update(KNOWN_DATA_KEY), cipher.final(), cipher.getAuthTag()]).toString('base64url');
    expect(ct).toBe('1jYXYpdWCmq5MowYujxVE7AEP8SYY9lyL7653pDLZfd96Yi7CpR89hwLQFGCUChl');
    const vaultKey = await crypto.subtle.importKey('raw', VAULT_BYTES, 'AES-GCM', false, ['encrypt', 'decrypt']);
    expect(await openForDevice(vaultKey, { v: 1, iv: toBase64Url(KNOWN_IV), ct })).toEqual(KNOWN_DATA_KEY);
  });

  it('round-trip with a fresh IV each time', async () => {
    const key = await newVaultKey();
    const [first, second] = [await sealForDevice(key, KNOWN_DATA_KEY), await sealForDevice(key, KNOWN_DATA_KEY)];
    expect(first.iv).not.toBe(second.iv);
    expect(await openForDevice(key, first)).toEqual(KNOWN_DATA_KEY);
    expect(await openForDevice(key, second)).toEqual(KNOWN_DATA_KEY);
  });

  it("refuse another device's vault key and any flipped bit", async () => {
    const key = await newVaultKey();
    const sealed = await sealForDevice(key, KNOWN_DATA_KEY);
    expect(await reason(openForDevice(await newVaultKey(), sealed))).toBe('decrypt');
    expect(await reason(openForDevice(key, { ...sealed, ct: toBase64Url(flipped(fromBase64Url(sealed.ct), 0)) }))).toBe('decrypt');
    expect(await reason(openForDevice(key, { ...sealed, ct: toBase64Url(flipped(fromBase64Url(sealed.ct), 47)) }))).toBe('decrypt');
    expect(await reason(openForDevice(key, { ...sealed, iv: toBase64Url(flipped(fromBase64Url(sealed.iv), 0)) }))).toBe('decrypt');
  });

  it('refuse a malformed stored shape', async () => {
    const key = await newVaultKey();
    const sealed = await sealForDevice(key, KNOWN_DATA_KEY);
    for (const bad of [null, {}, { ...sealed, v: 2 }, { ...sealed, ct: toBase64Url(new Uint8Array(32)) }, { ...sealed, iv: '' }]) {
      // Read back from storage: untrusted whatever its static type says.
      expect(await reason(openForDevice(key, bad as SealedDataKey)), JSON.stringify(bad)).toBe('malformed');
    }
  });

  it('refuse to seal anything but a 32-byte data key', async () => {
    await expect(sealForDevice(await newVaultKey(), new Uint8Array(16))).rejects.toThrow(RangeError);
  });
});
