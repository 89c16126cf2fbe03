import { z } from 'zod';

/**
 * A device's ECDH P-256 public key as a JWK: what a rotation of the sync data
 * key grants the new key to (src/sync/crypto/key-grant.ts). It is stored (a
 * paired device's record, this device's vault) and sent (membership entries,
 * grants), so its schema sits with the stored records, below sync.
 */
export const PublicKeyJwk = z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string().min(1).max(100), y: z.string().min(1).max(100) });
export type PublicKeyJwk = z.infer<typeof PublicKeyJwk>;
