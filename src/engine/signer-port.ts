import type { DeviceSignature } from './records/index.ts';

/**
 * This device's signing key, as the engine needs it: signs one decision's
 * `signed` object (signed-decision.ts) and answers the whole signature, in the
 * audit format's names. The worker signs with the device's identity
 * (src/identity); none: decisions are stored unsigned (tests, tools).
 *
 * Asynchronous (WebCrypto), so every decision is signed before its
 * compare-and-set, whose IndexedDB transaction cannot wait on anything but its
 * own requests; a decision the compare-and-set refuses drops its signature.
 */
export interface SignerPort {
  sign(signed: Record<string, unknown>): Promise<DeviceSignature>;
}
