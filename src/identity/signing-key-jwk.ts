import { sha256 } from '@noble/hashes/sha2.js';
import { z } from 'zod';
import { toBase64Url } from '../sync/crypto/base64url.ts';
import { utf8 } from '../sync/crypto/utf8.ts';

/** A P-256 coordinate, base64url without padding: always 32 bytes, so 43 characters. */
const coordinate = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a P-256 coordinate is 43 base64url characters');

/**
 * A device's public signing key as a JWK (RFC 7517): the members an ECDSA
 * P-256 public key needs, nothing else. This is the form the audit export's
 * `devices` list carries, so a verifier can import it with nothing but
 * Node's `crypto.createPublicKey({ key, format: 'jwk' })`.
 */
export const SigningKeyJwk = z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: coordinate, y: coordinate });
export type SigningKeyJwk = z.infer<typeof SigningKeyJwk>;

/**
 * The key's id: its JWK thumbprint (RFC 7638) — SHA-256 over the required
 * members in lexicographic order with no whitespace, base64url. Anyone with
 * the public key computes the same id, so an id cannot be claimed for
 * another key.
 */
export function keyIdOf(jwk: SigningKeyJwk): string {
  const { crv, kty, x, y } = SigningKeyJwk.parse(jwk);
  return toBase64Url(sha256(utf8(JSON.stringify({ crv, kty, x, y }))));
}
