import type { PausepointDb } from '../storage/db.ts';
import { PUSH_CONFIG_KEY, PUSH_OFF_KEY, PushConfig, PushOff, type SharedPushSettings } from './push-config.ts';
import { PUSH_STATUS_KEY } from './push-status.ts';

/**
 * Push settings are set up once for all of a person's devices: each device
 * shares what it holds (its own save, or one it applied from another device)
 * as a document of its own, and every device takes the latest save it hears
 * of. A turn-off is a save too, so it reaches the others instead of being
 * undone by a device that still has the old settings.
 */

/** What this device shares: its settings or its turn-off, whichever it holds; undefined when push was never set up here. */
export async function sharedPushSettings(db: PausepointDb, deviceId: string): Promise<SharedPushSettings | undefined> {
  const [configRow, offRow] = await db.settings.bulkGet([PUSH_CONFIG_KEY, PUSH_OFF_KEY]);
  const config = PushConfig.safeParse(configRow?.value);
  if (config.success) {
    const { savedAt, ...rest } = config.data;
    return { id: deviceId, savedAt, config: rest };
  }
  const off = PushOff.safeParse(offRow?.value);
  return off.success ? { id: deviceId, savedAt: off.data.savedAt, config: null } : undefined;
}

/**
 * Takes another device's shared settings when they were saved after what this
 * device holds. Runs inside the sync's transaction over `settings`; the
 * token is this device's own and stays (it is bound to its server's origin,
 * so a changed server never receives it). Returns whether anything changed.
 */
export async function applySharedPushSettings(db: PausepointDb, shared: SharedPushSettings): Promise<boolean> {
  const held = await sharedPushSettings(db, shared.id);
  if (held && held.savedAt >= shared.savedAt) return false;
  if (shared.config) {
    await db.settings.put({ key: PUSH_CONFIG_KEY, value: { ...shared.config, savedAt: shared.savedAt } satisfies PushConfig });
    await db.settings.delete(PUSH_OFF_KEY);
  } else {
    await db.settings.bulkDelete([PUSH_CONFIG_KEY, PUSH_STATUS_KEY]);
    await db.settings.put({ key: PUSH_OFF_KEY, value: { v: 1, savedAt: shared.savedAt } satisfies PushOff });
  }
  return true;
}
