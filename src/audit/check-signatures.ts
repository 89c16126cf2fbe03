import { verifyDeviceSignature } from '../identity/device-signature.ts';
import { keyIdOf } from '../identity/signing-key-jwk.ts';
import type { AuditDevice, AuditEntry } from './audit-entry.ts';
import { canonicalJson } from './canonical-json.ts';

/** One decision whose signature does not hold, by its place in the file (0-based) and id. */
export interface SignatureFailure {
  index: number;
  id: string;
  reason: string;
}

/** What checking a version 4 file's signatures found. */
export interface SignatureReport {
  /** Decisions whose signature verifies against the key of a device the file lists, and signs what the entry says. */
  verified: number;
  /** Decisions that fail: a signature that does not verify, or one that signs another decision than the entry's. */
  failed: SignatureFailure[];
  /** Decisions signed with a key the file does not list: sound or not, no listed device made them. */
  unlisted: SignatureFailure[];
  /** Decided entries without a signature (decided before decisions were signed), by id. */
  unsigned: string[];
}

/**
 * Checks every decision's `device_signature` against the `devices` the file
 * lists: the listed device whose `key_id` it names (each listed `key_id` must
 * be its key's thumbprint, or the device is not listed at all), the signature
 * over the canonical JSON of `signed`, and that `signed` is this entry's
 * decision — its card, its status, its resolution.
 */
export async function checkSignatures(devices: readonly AuditDevice[], entries: readonly AuditEntry[]): Promise<SignatureReport> {
  // Keyed by thumbprint, prototype-free: a key id from the file is untrusted input.
  const keys = new Map(devices.filter((d) => d.key_id === keyIdOf(d.public_key)).map((d) => [d.key_id, d.public_key]));
  const report: SignatureReport = { verified: 0, failed: [], unlisted: [], unsigned: [] };
  for (const [index, entry] of entries.entries()) {
    if (entry.entry_type !== 'decision' || entry.status === 'pending') continue;
    const signature = entry.device_signature;
    if (!signature) {
      report.unsigned.push(entry.id);
      continue;
    }
    const key = keys.get(signature.key_id);
    if (!key) {
      report.unlisted.push({ index, id: entry.id, reason: `signed with key ${signature.key_id}, which no device of this file has` });
      continue;
    }
    const { signed } = signature;
    const mismatch =
      signed.card_id !== entry.id ? 'card_id' : signed.status !== entry.status ? 'status' : !sameJson(signed.resolution, entry.resolution) ? 'resolution' : undefined;
    if (mismatch) {
      report.failed.push({ index, id: entry.id, reason: `its signature signs another decision (its ${mismatch} is not the entry's)` });
    } else if (!(await verifyDeviceSignature(key, signature))) {
      report.failed.push({ index, id: entry.id, reason: `its signature does not verify against the key of ${deviceName(devices, signature.key_id)}` });
    } else {
      report.verified++;
    }
  }
  return report;
}

function deviceName(devices: readonly AuditDevice[], keyId: string): string {
  return devices.find((d) => d.key_id === keyId)?.name ?? keyId;
}

/** Equal as JSON values: the same canonical text (a value with no JSON form equals nothing). */
function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}
