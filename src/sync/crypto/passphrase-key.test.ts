import { createDecipheriv, pbkdf2Sync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { WrappedKeyError, WrongPassphraseError } from './crypto-errors.ts';
import { PBKDF2_ITERATIONS, unwrapWithPassphrase, WrappedKey, wrapWithPassphrase } from './passphrase-key.ts';
import { flipped, KNOWN_DATA_KEY, KNOWN_IV, KNOWN_SALT } from './testing/known-answer.ts';

// Tests wrap with a low count and lower the floor explicitly; one round trip below runs the real 600,000.
const FAST = { iterations: 1000 };
const ACCEPT_FAST = { minIterations: 1000 };
const PASSPHRASE = 'correct horse battery staple';

afterEach(() => {
  vi.restoreAllMocks();
});

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('wrapWithPassphrase', () => {
  it('gives the known wrapped key: PBKDF2-SHA-256 → AES-256-GCM of the data key, additional data `pausepoint.data-key`', async () => {
    const wrapped = await wrapWithPassphrase(KNOWN_DATA_KEY, PASSPHRASE, { ...FAST, salt: KNOWN_SALT, iv: KNOWN_IV });
    expect(wrapped).toEqual({
      v: 1,
      kdf: 'PBKDF2-SHA-256',
      iterations: 1000,
      salt: 'EBESExQVFhcYGRobHB0eHw',
      iv: 'oKGio6Slpqeoqaqr',
      wrapped: 'jsOaMeZD6D3dtWIe1F-aPpQ0u_qAs16dexHSw7GX5EgsukLbqbEBsfsZ7kFsegIg',
    });
    // Node's PBKDF2 and AES-GCM open it to the data key: the independent computation.
    const ct = fromBase64Url(wrapped.wrapped);
    const decipher = createDecipheriv('aes-256-gcm', pbkdf2Sync(PASSPHRASE, KNOWN_SALT, 1000, 32, 'sha256'), KNOWN_IV);
    decipher.setAAD(Buffer.from('pausepoint.data-key'));
    decipher.setAuthTag(ct.subarray(32));
    expect(new Uint8Array(Buffer.concat([decipher.update(ct.subarray(0, 32)), decipher.final()]))).toEqual(KNOWN_DATA_KEY);
  });

  it('defaults to 600,000 iterations with a fresh 16-byte salt and IV, and round-trips at that cost', async () => {
    expect(PBKDF2_ITERATIONS).toBe(600_000);
    const wrapped = await wrapWithPassphrase(KNOWN_DATA_KEY, PASSPHRASE);
    expect(wrapped.iterations).toBe(600_000);
    expect(WrappedKey.parse(wrapped)).toEqual(wrapped);
    expect(fromBase64Url(wrapped.salt).length).toBe(16);
    expect(await unwrapWithPassphrase(wrapped, PASSPHRASE)).toEqual(KNOWN_DATA_KEY);
    const again = await wrapWithPassphrase(KNOWN_DATA_KEY, PASSPHRASE, FAST);
    expect(again.salt).not.toBe(wrapped.salt);
    expect(again.iv).not.toBe(wrapped.iv);
  });

  it('refuses a data key that is not 32 bytes', async () => {
    await expect(wrapWithPassphrase(new Uint8Array(31), PASSPHRASE, FAST)).rejects.toThrow(RangeError);
  });
});

describe('unwrapWithPassphrase', () => {
  it('throws WrongPassphraseError for another passphrase, a changed salt, IV or ciphertext', async () => {
    const wrapped = await wrapWithPassphrase(KNOWN_DATA_KEY, PASSPHRASE, FAST);
    const tampered: WrappedKey[] = [
      { ...wrapped, salt: toBase64Url(flipped(fromBase64Url(wrapped.salt), 0)) },
      { ...wrapped, iv: toBase64Url(flipped(fromBase64Url(wrapped.iv), 11)) },
      { ...wrapped, wrapped: toBase64Url(flipped(fromBase64Url(wrapped.wrapped), 3)) },
      { ...wrapped, wrapped: toBase64Url(flipped(fromBase64Url(wrapped.wrapped), 47)) },
      // The count is not in the additional data, but the key it derives is another one.
      { ...wrapped, iterations: 1001 },
    ];
    expect(await thrown(unwrapWithPassphrase(wrapped, 'Correct horse battery staple', ACCEPT_FAST))).toBeInstanceOf(WrongPassphraseError);
    expect(await thrown(unwrapWithPassphrase(wrapped, '', ACCEPT_FAST))).toBeInstanceOf(WrongPassphraseError);
    for (const each of tampered) expect(await thrown(unwrapWithPassphrase(each, PASSPHRASE, ACCEPT_FAST))).toBeInstanceOf(WrongPassphraseError);
  });

  it('normalises the passphrase to NFC: a precomposed and a decomposed é open the same key', async () => {
    const precomposed = 'caf\u00e9 \u00fcber \u00c5ngstr\u00f6m 🔑';
    const decomposed = 'cafe\u0301 u\u0308ber A\u030angstro\u0308m 🔑';
    expect(precomposed).not.toBe(decomposed);
    const wrapped = await wrapWithPassphrase(KNOWN_DATA_KEY, decomposed, { ...FAST, salt: KNOWN_SALT, iv: KNOWN_IV });
    expect(await unwrapWithPassphrase(wrapped, precomposed, ACCEPT_FAST)).toEqual(KNOWN_DATA_KEY);
    // What PBKDF2 stretched is the NFC form's UTF-8, as Node computes it.
    const ct = fromBase64Url(wrapped.wrapped);
    const decipher = createDecipheriv('aes-256-gcm', pbkdf2Sync(Buffer.from(precomposed, 'utf8'), KNOWN_SALT, 1000, 32, 'sha256'), KNOWN_IV);
    decipher.setAAD(Buffer.from('pausepoint.data-key'));
    decipher.setAuthTag(ct.subarray(32));
    expect(new Uint8Array(Buffer.concat([decipher.update(ct.subarray(0, 32)), decipher.final()]))).toEqual(KNOWN_DATA_KEY);
    // Other Unicode is not folded: a compatibility form (ﬁ) is another passphrase.
    const ligature = await wrapWithPassphrase(KNOWN_DATA_KEY, '\ufb01sh', FAST);
    expect(await thrown(unwrapWithPassphrase(ligature, 'fish', ACCEPT_FAST))).toBeInstanceOf(WrongPassphraseError);
  });

  it('refuses fewer than 600,000 iterations, or an absurd count, before running PBKDF2', async () => {
    const weak = await wrapWithPassphrase(KNOWN_DATA_KEY, PASSPHRASE, FAST);
    const deriveKey = vi.spyOn(crypto.subtle, 'deriveKey');
    for (const iterations of [1000, 599_999, 10_000_001, 2 ** 32]) {
      const error = await thrown(unwrapWithPassphrase({ ...weak, iterations }, PASSPHRASE));
      expect(error, String(iterations)).toBeInstanceOf(WrappedKeyError);
      expect(error).toHaveProperty('reason', 'weak_parameters');
    }
    expect(deriveKey).not.toHaveBeenCalled();
  });

  it('refuses a malformed wrapped key, before running PBKDF2', async () => {
    const good = await wrapWithPassphrase(KNOWN_DATA_KEY, PASSPHRASE, FAST);
    const deriveKey = vi.spyOn(crypto.subtle, 'deriveKey');
    const bad: unknown[] = [
      null,
      {},
      { ...good, v: 2 },
      { ...good, kdf: 'PBKDF2-SHA-1' },
      { ...good, iterations: 600_000.5 },
      { ...good, iterations: '600000' },
      { ...good, salt: toBase64Url(new Uint8Array(8)) },
      { ...good, iv: toBase64Url(new Uint8Array(16)) },
      { ...good, wrapped: toBase64Url(new Uint8Array(32)) },
      { ...good, wrapped: `${good.wrapped}==` },
    ];
    for (const each of bad) {
      // A server's document is untrusted whatever its static type says.
      const error = await thrown(unwrapWithPassphrase(each as WrappedKey, PASSPHRASE, ACCEPT_FAST));
      expect(error, JSON.stringify(each)).toBeInstanceOf(WrappedKeyError);
      expect(error).toHaveProperty('reason', 'malformed');
    }
    expect(deriveKey).not.toHaveBeenCalled();
  });
});
