import { deviceIdentity } from '../identity/identity-store.ts';
import type { PausepointDb } from '../storage/db.ts';
import { readMembership } from '../sync/membership/membership-store.ts';
import type { AuditDevice } from './audit-entry.ts';

/** The name a device without sync goes by in the file: it has no `This device's name` yet. */
export const UNNAMED_DEVICE = 'This device';

/** What an export lists at its top, in the chain's first link: the devices and the log that vouches for them. */
export interface AuditHead {
  devices: AuditDevice[];
  /** The membership log's entries; absent when this device never synced. */
  membership?: unknown[];
}

/**
 * The export's `devices`: every device the membership log names (removed
 * ones too: their earlier decisions still verify), with the signing key the
 * log pinned for it, and the log itself, which a verifier checks; and this
 * device, when the log does not name it (it never synced). Its identity,
 * made at first start, is made here if it somehow is not yet.
 */
export async function auditHead(db: PausepointDb): Promise<AuditHead> {
  const [identity, membership, sync] = await Promise.all([deviceIdentity(db), readMembership(db), db.settings.get(SYNC_CONFIG_KEY)]);
  const devices: AuditDevice[] = membership.members.map((m) => ({ key_id: m.keyId, name: m.name, public_key: m.publicKey }));
  if (!devices.some((d) => d.key_id === identity.keyId)) {
    devices.push({ key_id: identity.keyId, name: syncName(sync?.value) ?? UNNAMED_DEVICE, public_key: identity.publicKey });
  }
  return membership.entries.length > 0 ? { devices, membership: membership.entries } : { devices };
}

/**
 * The settings row of sync's setup (src/sync/sync-store.ts), read for its
 * `deviceName` alone: importing sync's records would load them with the
 * audit view.
 */
const SYNC_CONFIG_KEY = 'sync';

function syncName(config: unknown): string | undefined {
  const name = typeof config === 'object' && config !== null ? (config as { deviceName?: unknown }).deviceName : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}
