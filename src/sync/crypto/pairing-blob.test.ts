import { createCipheriv, createDecipheriv, pbkdf2Sync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { PairingError } from './crypto-errors.ts';
import { newPairingCode } from './pairing-code.ts';
import type { PairingPayload } from './pairing-blob.ts';
import { openPairing, sealPairing } from './pairing-blob.ts';
import { flipped, KNOWN_DATA_KEY, KNOWN_IV, KNOWN_SALT } from './testing/known-answer.ts';

// Tests seal with a low count and lower the floor explicitly; one round trip below runs the real 600,000.
const FAST = { iterations: 1000 };
const ACCEPT_FAST = { minIterations: 1000 };
const CODE = '7KX3-MN9A-40RH';

const PAYLOAD: PairingPayload = {
  v: 1,
  serverUrl: 'https://couch.example.com',
  database: 'pausepoint',
  username: 'ada',
  password: 's3cret',
  dataKey: toBase64Url(KNOWN_DATA_KEY),
  pairingId: '6f1c2b8e-3d4a-4b5c-9e7f-0a1b2c3d4e5f',
  expiresAt: 1764700000000,
  inviter: { deviceId: 'device-laptop', name: 'Chromium on Linux' },
};

const KNOWN_BLOB =
  'AQAAA-gQERITFBUWFxgZGhscHR4foKGio6SlpqeoqaqrUcDvV5DgwQN9NQbax6DCuFQ5E-12Jn-uZPePmMts-17udjDnwAmSh24mH1gIe5zGRJS3iPjotemgGpzrFIXwo3IZAsGCqlSDUDJoj5XgGcPz6ee0Q0qxN7Rjqsa-QLem3blBcd5nslTFND3gX6s5rHsW6KijGsHmqGMxWUu4CCdOjY2vwefSlnGng5Tg-d0u4usn7HDRgudq9mZxakTj1wRhjb3n2CCVFxTMuyHjmN0HE4ghEnUuP9UgrvQ45mfKV6bZd3Em2KpqYdtJZFKCJ1rh8mCbQDOyIa8TppThhjxQ8QTC032XjsT44A7F5nmga2BiSWeRGbSOLiutISql84rrmQdKlwEAc74CL46KaWK_yW9HrblOGynzwgPwM_WHf7I0KXiFelavUhLmGDuL5RF1f8rEktc1adn4nykY0Va7SDc';

afterEach(() => {
  vi.restoreAllMocks();
});

async function kind(promise: Promise<unknown>): Promise<PairingError['kind']> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof PairingError)) throw new Error(`expected a PairingError, got ${String(error)}`);
  return error.kind;
}

/** The blob's header as Node would lay it out: version, iterations (big-endian), salt, IV. */
function nodeHeader(iterations: number, version = 1): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(version, 0);
  head.writeUInt32BE(iterations, 1);
  return Buffer.concat([head, KNOWN_SALT, KNOWN_IV]);
}

/** A blob sealed by Node under CODE with the known salt and IV: authentic bytes of our choosing. */
function nodeBlob(plaintext: string, iterations = 1000, version = 1): string {
  const header = nodeHeader(iterations, version);
  const cipher = createCipheriv('aes-256-gcm', pbkdf2Sync(CODE, KNOWN_SALT, iterations, 32, 'sha256'), KNOWN_IV);
  cipher.setAAD(header);
  return Buffer.concat([header, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64url');
}

describe('sealPairing', () => {
  it('gives the known blob: header (version, iterations, salt, IV) then AES-256-GCM of the JSON under PBKDF2 of the code', async () => {
    const blob = await sealPairing(PAYLOAD, CODE, { ...FAST, salt: KNOWN_SALT, iv: KNOWN_IV });
    expect(blob).toBe(KNOWN_BLOB);
    expect(blob).toBe(nodeBlob(JSON.stringify(PAYLOAD)));
    // And Node opens it back, the header being the additional data.
    const bytes = fromBase64Url(blob);
    const decipher = createDecipheriv('aes-256-gcm', pbkdf2Sync(CODE, KNOWN_SALT, 1000, 32, 'sha256'), KNOWN_IV);
    decipher.setAAD(bytes.subarray(0, 33));
    decipher.setAuthTag(bytes.subarray(-16));
    expect(JSON.parse(Buffer.concat([decipher.update(bytes.subarray(33, -16)), decipher.final()]).toString('utf8'))).toEqual(PAYLOAD);
  });

  it('stretches the code as shown, whatever form it was given in', async () => {
    const blob = await sealPairing(PAYLOAD, '7kx3 mn9a 4oRH', { ...FAST, salt: KNOWN_SALT, iv: KNOWN_IV });
    expect(blob).toBe(KNOWN_BLOB);
  });

  it('defaults to 600,000 iterations and fresh salt and IV, and round-trips at that cost', async () => {
    const code = newPairingCode();
    const blob = await sealPairing(PAYLOAD, code);
    const bytes = fromBase64Url(blob);
    expect(new DataView(bytes.buffer).getUint32(1)).toBe(600_000);
    expect(await openPairing(blob, code)).toEqual(PAYLOAD);
    const again = await sealPairing(PAYLOAD, code, FAST);
    expect(fromBase64Url(again).subarray(5, 33)).not.toEqual(bytes.subarray(5, 33));
  });

  it('keeps a link short enough for a QR code', async () => {
    const blob = await sealPairing(PAYLOAD, CODE, FAST);
    expect(blob.length).toBeLessThan(600);
  });

  it('refuses a payload that is not one, and a code that is not a code', async () => {
    await expect(sealPairing({ ...PAYLOAD, serverUrl: 'ftp://couch.example.com' }, CODE, FAST)).rejects.toThrow();
    await expect(sealPairing({ ...PAYLOAD, dataKey: toBase64Url(new Uint8Array(16)) }, CODE, FAST)).rejects.toThrow();
    await expect(sealPairing({ ...PAYLOAD, pairingId: 'not-a-uuid' }, CODE, FAST)).rejects.toThrow();
    await expect(sealPairing(PAYLOAD, '7KX3-MN9A', FAST)).rejects.toThrow(RangeError);
  });

  it('sends only the payload’s own fields', async () => {
    const blob = await sealPairing({ ...PAYLOAD, apiKey: 'sk-never' } as PairingPayload, CODE, FAST);
    expect(await openPairing(blob, CODE, ACCEPT_FAST)).toEqual(PAYLOAD);
  });
});

describe('openPairing', () => {
  it('opens the known blob with the code typed any way a person might', async () => {
    for (const typed of [CODE, '7kx3mn9a40rh', '7KX3 MN9A 4ORH', ' 7kx3-mn9a-4orh ']) {
      expect(await openPairing(KNOWN_BLOB, typed, ACCEPT_FAST), typed).toEqual(PAYLOAD);
    }
  });

  it('says wrong_code for another code, a text that is not a code, or any flipped bit after the header', async () => {
    expect(await kind(openPairing(KNOWN_BLOB, '7KX3-MN9A-40RJ', ACCEPT_FAST))).toBe('wrong_code');
    expect(await kind(openPairing(KNOWN_BLOB, '7KX3-MN9A', ACCEPT_FAST))).toBe('wrong_code');
    const bytes = fromBase64Url(KNOWN_BLOB);
    // Salt (5), IV (21), ciphertext (33), tag (last).
    for (const index of [5, 20, 21, 32, 33, bytes.length - 1]) {
      expect(await kind(openPairing(toBase64Url(flipped(bytes, index)), CODE, ACCEPT_FAST)), String(index)).toBe('wrong_code');
    }
  });

  it('says bad_link for text that is not a blob of ours', async () => {
    const bytes = fromBase64Url(KNOWN_BLOB);
    const bad = [
      '',
      'not base64url!',
      `${KNOWN_BLOB}=`,
      KNOWN_BLOB.slice(0, 40),
      toBase64Url(bytes.subarray(0, 48)),
      nodeBlob(JSON.stringify(PAYLOAD), 1000, 2),
      'A'.repeat(8004),
    ];
    for (const blob of bad) expect(await kind(openPairing(blob, CODE, ACCEPT_FAST)), blob.slice(0, 60)).toBe('bad_link');
  });

  it('says bad_link for fewer than 600,000 iterations or an absurd count, before running PBKDF2', async () => {
    const deriveKey = vi.spyOn(crypto.subtle, 'deriveKey');
    expect(await kind(openPairing(KNOWN_BLOB, CODE))).toBe('bad_link');
    expect(await kind(openPairing(nodeBlob(JSON.stringify(PAYLOAD), 599_999), CODE))).toBe('bad_link');
    const absurd = fromBase64Url(KNOWN_BLOB);
    new DataView(absurd.buffer).setUint32(1, 0xffff_ffff);
    expect(await kind(openPairing(toBase64Url(absurd), CODE))).toBe('bad_link');
    expect(deriveKey).not.toHaveBeenCalled();
  });

  it('says bad_link when authentic bytes hold no invitation it reads', async () => {
    for (const plaintext of ['not json', JSON.stringify({ ...PAYLOAD, v: 2 }), JSON.stringify({ ...PAYLOAD, serverUrl: 'javascript:alert(1)' })]) {
      expect(await kind(openPairing(nodeBlob(plaintext), CODE, ACCEPT_FAST)), plaintext.slice(0, 40)).toBe('bad_link');
    }
  });
});
