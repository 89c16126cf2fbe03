import { createCipheriv, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveSyncKeys, NAME_INFO, newDataKey, SEAL_INFO } from './data-key.ts';
import { KNOWN_DATA_KEY as RAW, KNOWN_IV as IV, nodeHkdf } from './testing/known-answer.ts';

const nodeKey = (info: string) => nodeHkdf(RAW, info);

describe('newDataKey', () => {
  it('is 32 random bytes, fresh on each call', () => {
    const [first, second] = [newDataKey(), newDataKey()];
    expect(first).toBeInstanceOf(Uint8Array);
    expect(first.length).toBe(32);
    expect(first).not.toEqual(second);
  });
});

describe('deriveSyncKeys', () => {
  it('gives a non-extractable AES-256-GCM seal key and a non-extractable HMAC-SHA-256 name key', async () => {
    const { seal, name } = await deriveSyncKeys(RAW);
    expect(seal.extractable).toBe(false);
    expect(seal.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
    expect([...seal.usages].sort()).toEqual(['decrypt', 'encrypt']);
    expect(name.extractable).toBe(false);
    expect(name.algorithm).toEqual({ name: 'HMAC', hash: { name: 'SHA-256' }, length: 256 });
    expect(name.usages).toEqual(['sign']);
    await expect(crypto.subtle.exportKey('raw', seal)).rejects.toThrow();
    await expect(crypto.subtle.exportKey('raw', name)).rejects.toThrow();
  });

  it('derives the known keys: HKDF-SHA-256, salt 32 zero bytes, info pausepoint/sync/seal and pausepoint/sync/name', async () => {
    // The HKDF outputs, computed once with node:crypto and checked in.
    expect(nodeKey(SEAL_INFO).toString('hex')).toBe('d1a2760ded38c8bb0be9692c8cc3588573ecd68159938af776ad0ec560fdcb5d');
    expect(nodeKey(NAME_INFO).toString('hex')).toBe('f86304ba42928f30ebe6a44d49a0e486720b6162698641e08d5712ffb077fc2a');
    const { seal, name } = await deriveSyncKeys(RAW);

    // The keys cannot be exported, so they are known by what they do: the same MAC and ciphertext as Node's with those bytes.
    const message = new TextEncoder().encode('abc');
    const mac = Buffer.from(await crypto.subtle.sign('HMAC', name, message));
    expect(mac.equals(createHmac('sha256', nodeKey(NAME_INFO)).update(message).digest())).toBe(true);

    const sealed = Buffer.from(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: IV }, seal, message));
    const cipher = createCipheriv('aes-256-gcm', nodeKey(SEAL_INFO), IV);
    expect(sealed.equals(Buffer.concat([cipher.update(message), cipher.final(), cipher.getAuthTag()]))).toBe(true);
  });

  it('derives other keys from another data key', async () => {
    const other = RAW.map((byte) => byte ^ 1);
    const message = new TextEncoder().encode('abc');
    const macs = await Promise.all([RAW, other].map(async (raw) => Buffer.from(await crypto.subtle.sign('HMAC', (await deriveSyncKeys(raw)).name, message))));
    expect(macs[0]!.equals(macs[1]!)).toBe(false);
  });

  it('refuses a data key that is not 32 bytes', async () => {
    await expect(deriveSyncKeys(new Uint8Array(16))).rejects.toThrow(RangeError);
    await expect(deriveSyncKeys(new Uint8Array(33))).rejects.toThrow(RangeError);
  });
});
