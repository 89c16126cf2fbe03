import { deviceIdentity } from '../identity/identity-store.ts';
import type { PausepointDb } from '../storage/db.ts';
import type { AuditDevice } from './audit-entry.ts';

/** The name a device without sync goes by in the file: it has no `This device's name` yet. */
export const UNNAMED_DEVICE = 'This device';

/**
 * The export's `devices`: the keys that verify its decisions' signatures.
 * For now this device alone (its identity, made at first start, is made here
 * if it somehow is not yet): the membership log that will list and vouch for
 * every paired device's key is not in the file yet, so a decision another
 * device signed names a key the file does not list, and the verifier says so.
 */
export async function auditDevices(db: PausepointDb): Promise<AuditDevice[]> {
  const [identity, sync] = await Promise.all([deviceIdentity(db), db.settings.get(SYNC_CONFIG_KEY)]);
  return [{ key_id: identity.keyId, name: syncName(sync?.value) ?? UNNAMED_DEVICE, public_key: identity.publicKey }];
}

/**
 * The settings row of sync's setup (src/sync/sync-store.ts), read for its
 * `deviceName` alone: the export runs on the page, where importing sync's
 * records would load them with the audit view.
 */
const SYNC_CONFIG_KEY = 'sync';

function syncName(config: unknown): string | undefined {
  const name = typeof config === 'object' && config !== null ? (config as { deviceName?: unknown }).deviceName : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}
