import { keyIdOf, SigningKeyJwk } from './signing-key-jwk.ts';

/**
 * This device's signing key pair: what makes a decision, a synced record or
 * a membership change provably this device's. The private key is
 * non-extractable (script can sign with it, never read it out); the public
 * key is shared as a JWK, and `keyId` is its thumbprint.
 */
export interface DeviceIdentity {
  keyId: string;
  publicKey: SigningKeyJwk;
  privateKey: CryptoKey;
}

export const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

export async function newDeviceIdentity(): Promise<DeviceIdentity> {
  const pair = (await crypto.subtle.generateKey(ECDSA_P256, false, ['sign', 'verify'])) as CryptoKeyPair;
  // A generated key pair's public half is always exportable, whatever `extractable` says of the private half.
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const publicKey = SigningKeyJwk.parse({ kty, crv, x, y });
  return { keyId: keyIdOf(publicKey), publicKey, privateKey: pair.privateKey };
}
