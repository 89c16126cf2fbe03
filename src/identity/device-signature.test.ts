import 'fake-indexeddb/auto';
import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../audit/canonical-json.ts';
import { openTestDb } from '../storage/testing/open-test-db.ts';
import { newDeviceIdentity } from './device-identity.ts';
import { signObject, verifyCanonical, verifyDeviceSignature, type DeviceSignature } from './device-signature.ts';
import { deviceIdentity, readIdentity } from './identity-store.ts';
import { keyIdOf, type SigningKeyJwk } from './signing-key-jwk.ts';

/**
 * Known answers made once with Node's own crypto (OpenSSL), not with the code
 * under test: `crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })`,
 * `crypto.sign('sha256', text, { key, dsaEncoding: 'ieee-p1363' })`, and the
 * thumbprint as `createHash('sha256')` of the RFC 7638 member string.
 */
const KNOWN = {
  publicKey: { kty: 'EC', crv: 'P-256', x: '0raqNhqqEPQ8THif2SZrBLJHzdr3lCOGGmiuDJGk7a4', y: 'RwZZ1x4nWXx-MrB3i1t6bth8pQ5BblWwOIUC5F7puDI' } as SigningKeyJwk,
  keyId: 'em97b6VtbaKjbkoani-pZj_Kfpw_siSBIS-XYh6HHog',
  // Signed as the text {"card_id":"pp-1","resolution":"approved","view_hash":"ab"}: the canonical JSON of `signed`.
  signed: { view_hash: 'ab', resolution: 'approved', card_id: 'pp-1' },
  value: 'PcaIxAEkLK0PMZaJ5OtRPBZc1uteY477UCw7F-FnAzxVeas2uTpyjgXTI-_cocvoAxSrjDcyWoWX9M85tbvkEQ',
};

describe('device signatures', () => {
  it('computes the RFC 7638 thumbprint OpenSSL’s SHA-256 gives', () => {
    expect(keyIdOf(KNOWN.publicKey)).toBe(KNOWN.keyId);
  });

  it('verifies a signature Node made over the canonical JSON, and refuses it tampered', async () => {
    const signature: DeviceSignature = { alg: 'ES256', key_id: KNOWN.keyId, signed: KNOWN.signed, value: KNOWN.value };
    expect(await verifyDeviceSignature(KNOWN.publicKey, signature)).toBe(true);
    expect(await verifyDeviceSignature(KNOWN.publicKey, { ...signature, signed: { ...KNOWN.signed, resolution: 'declined' } })).toBe(false);
    const flipped = (KNOWN.value[0] === 'A' ? 'B' : 'A') + KNOWN.value.slice(1);
    expect(await verifyDeviceSignature(KNOWN.publicKey, { ...signature, value: flipped })).toBe(false);
  });

  it('refuses a signature whose key_id is not the key’s own thumbprint', async () => {
    const other = await newDeviceIdentity();
    const signature: DeviceSignature = { alg: 'ES256', key_id: other.keyId, signed: KNOWN.signed, value: KNOWN.value };
    expect(await verifyDeviceSignature(KNOWN.publicKey, signature)).toBe(false);
  });

  it('signs so that Node’s crypto.verify accepts it with the JWK alone', async () => {
    const identity = await newDeviceIdentity();
    const signed = { card_id: 'pp-2', view_hash: 'cd', resolution: 'declined', reason: 'not today — “no”', at: '2026-12-05T17:00:00.000Z' };
    const signature = await signObject(identity, signed);
    expect(signature.key_id).toBe(keyIdOf(identity.publicKey));
    const key = createPublicKey({ key: identity.publicKey, format: 'jwk' });
    const ok = verify('sha256', Buffer.from(canonicalJson(signature.signed)), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature.value, 'base64url'));
    expect(ok).toBe(true);
  });

  it('answers false, never throws, for malformed keys and signatures', async () => {
    expect(await verifyCanonical({ ...KNOWN.publicKey, x: 'A'.repeat(43) }, KNOWN.signed, KNOWN.value)).toBe(false);
    expect(await verifyCanonical(KNOWN.publicKey, KNOWN.signed, 'short')).toBe(false);
    expect(await verifyDeviceSignature(KNOWN.publicKey, { alg: 'RS256', key_id: KNOWN.keyId, signed: KNOWN.signed, value: KNOWN.value })).toBe(false);
    expect(await verifyDeviceSignature(KNOWN.publicKey, null)).toBe(false);
  });
});

describe('the stored identity', () => {
  it('is made once, kept non-extractable, and the same for two tabs starting at once', async () => {
    const { db, cleanup } = await openTestDb();
    try {
      const [a, b] = await Promise.all([deviceIdentity(db), deviceIdentity(db)]);
      expect(a.keyId).toBe(b.keyId);
      const again = await readIdentity(db);
      expect(again?.keyId).toBe(a.keyId);
      expect(again?.privateKey.extractable).toBe(false);
      // The stored key still signs what the public key verifies.
      const signature = await signObject(again!, { card_id: 'x' });
      expect(await verifyDeviceSignature(a.publicKey, signature)).toBe(true);
    } finally {
      await cleanup();
    }
  });
});
