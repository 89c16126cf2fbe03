import type { DeviceSignature } from '../records/index.ts';
import type { SignerPort } from '../signer-port.ts';

/**
 * A device's signer for engine tests: keeps what it was asked to sign, in
 * order, and answers a signature in the audit format's shape whose `value`
 * only numbers it. The real signing (ES256 over the canonical JSON) is
 * src/identity's, with its own known-answer tests.
 */
export class MemorySigner implements SignerPort {
  readonly signedObjects: Record<string, unknown>[] = [];

  constructor(readonly keyId = 'test-key') {}

  async sign(signed: Record<string, unknown>): Promise<DeviceSignature> {
    this.signedObjects.push(signed);
    const n = String(this.signedObjects.length);
    return { alg: 'ES256', key_id: this.keyId, signed, value: n.padStart(86, 'A') };
  }
}
