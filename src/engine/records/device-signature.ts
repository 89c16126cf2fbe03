import { z } from 'zod';

/**
 * A device's signature over one object, in the audit format's names (keep
 * them: they are the format's contract). `signed` is the exact object the
 * device signed; `value` is the base64url raw r‖s ECDSA P-256 / SHA-256
 * signature over the RFC 8785 canonical JSON of `signed`; `key_id` is the
 * signing key's JWK thumbprint (RFC 7638). Defined here, with the records,
 * because a pause point stores the signature of its decision
 * (`PausePoint.deviceSignature`); src/identity makes and checks them.
 */
export const DeviceSignature = z.object({
  alg: z.literal('ES256'),
  key_id: z.string().min(1).max(100),
  signed: z.record(z.string(), z.unknown()),
  // A raw P-256 signature, r‖s, is 64 bytes: 86 base64url characters. (No message: this schema is in the page's start-up JavaScript.)
  value: z.string().regex(/^[A-Za-z0-9_-]{86}$/),
});
export type DeviceSignature = z.infer<typeof DeviceSignature>;
