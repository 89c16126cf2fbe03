import { DeviceSignature } from '../engine/records/device-signature.ts';
import { canonicalJson } from '../audit/canonical-json.ts';
import { fromBase64Url, toBase64Url } from '../sync/crypto/base64url.ts';
import { utf8 } from '../sync/crypto/utf8.ts';
import { ECDSA_P256, type DeviceIdentity } from './device-identity.ts';
import { keyIdOf, SigningKeyJwk } from './signing-key-jwk.ts';

const ES256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
/** A raw P-256 signature, r‖s, is 64 bytes: 86 base64url characters. */
const RAW_SIGNATURE = /^[A-Za-z0-9_-]{86}$/;

// The schema lives with the records (a pause point stores its decision's signature); the engine cannot import this folder.
export { DeviceSignature };

/** The raw r‖s signature (base64url) of `value`'s canonical JSON. WebCrypto's ECDSA signs in exactly that form (IEEE P1363). */
export async function signCanonical(privateKey: CryptoKey, value: unknown): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.sign(ES256, privateKey, utf8(canonicalJson(value)))));
}

/** Whether `signature` is `publicKey`'s over `value`'s canonical JSON; false for anything malformed. */
export async function verifyCanonical(publicKey: SigningKeyJwk, value: unknown, signature: string): Promise<boolean> {
  if (typeof signature !== 'string' || !RAW_SIGNATURE.test(signature)) return false;
  let text: string;
  try {
    text = canonicalJson(value);
  } catch {
    return false;
  }
  // A JWK whose point is not on the curve does not import: not a key anything verifies against.
  const key = await verifyKeyOf(publicKey)?.catch(() => undefined);
  return key !== undefined && crypto.subtle.verify(ES256, key, fromBase64Url(signature), utf8(text));
}

/**
 * The imported key of `publicKey`, by the very object the caller holds: a
 * page of synced records is verified against the membership's pinned key
 * objects, the same few for thousands of records, so each is parsed and
 * thumbprinted once (about a tenth of a verify's cost in Node), not per
 * record. The point is compared again on every use, so an object changed
 * since is looked up afresh. Undefined for anything that is not a signing key.
 */
const byObject = new WeakMap<object, { x: string; y: string; key: Promise<CryptoKey> }>();

function verifyKeyOf(publicKey: unknown): Promise<CryptoKey> | undefined {
  if (typeof publicKey !== 'object' || publicKey === null) return undefined;
  const known = byObject.get(publicKey);
  const { x, y } = publicKey as { x?: unknown; y?: unknown };
  if (known && known.x === x && known.y === y) return known.key;
  const jwk = SigningKeyJwk.safeParse(publicKey);
  if (!jwk.success) return undefined;
  const key = importVerifyKey(jwk.data);
  byObject.set(publicKey, { x: jwk.data.x, y: jwk.data.y, key });
  return key;
}

export async function signObject(identity: DeviceIdentity, signed: Record<string, unknown>): Promise<DeviceSignature> {
  return { alg: 'ES256', key_id: identity.keyId, signed, value: await signCanonical(identity.privateKey, signed) };
}

/** Whether `signature` is sound and made with `publicKey`: its `key_id` must be that key's thumbprint, not just any id. */
export async function verifyDeviceSignature(publicKey: SigningKeyJwk, signature: unknown): Promise<boolean> {
  const parsed = DeviceSignature.safeParse(signature);
  const jwk = SigningKeyJwk.safeParse(publicKey);
  if (!parsed.success || !jwk.success || parsed.data.key_id !== keyIdOf(jwk.data)) return false;
  return verifyCanonical(jwk.data, parsed.data.signed, parsed.data.value);
}

/** Imported keys, by thumbprint: a page of synced records verifies against a handful of keys, thousands of times. */
const imported = new Map<string, Promise<CryptoKey>>();

function importVerifyKey(jwk: SigningKeyJwk): Promise<CryptoKey> {
  const id = keyIdOf(jwk);
  let key = imported.get(id);
  if (!key) {
    key = crypto.subtle.importKey('jwk', { ...jwk, ext: true }, ECDSA_P256, true, ['verify']);
    imported.set(id, key);
    key.catch(() => imported.delete(id));
  }
  return key;
}
