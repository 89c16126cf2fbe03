import type { PausepointDb } from '../storage/db.ts';
import { toStorageError } from '../storage/storage-error.ts';
import { PUSH_CONFIG_KEY, PUSH_OFF_KEY, PushConfig, type PushOff } from './push-config.ts';
import { PUSH_STATUS_KEY } from './push-status.ts';
import { PUSH_TOKEN_KEY, pushTokenFor, type PushTokenValue } from './push-token.ts';

/** The saved push settings with this device's token for their server, or undefined when push is off. */
export async function readPushSettings(db: PausepointDb): Promise<{ config: PushConfig; token: string } | undefined> {
  const [configRow, tokenRow] = await db.settings.bulkGet([PUSH_CONFIG_KEY, PUSH_TOKEN_KEY]);
  const parsed = PushConfig.safeParse(configRow?.value);
  if (!parsed.success) return undefined;
  return { config: parsed.data, token: pushTokenFor(tokenRow?.value, parsed.data.serverUrl) };
}

/**
 * Stores the settings and the token (bound to the server's origin; '' removes
 * it) in one transaction: a reader never sees a new server with an old token.
 */
export async function savePushSettings(db: PausepointDb, config: PushConfig, token: string): Promise<void> {
  const checked = PushConfig.parse(config);
  const tokenValue: PushTokenValue = { v: 1, origin: new URL(checked.serverUrl).origin, token };
  try {
    await db.transaction('rw', db.settings, async () => {
      await db.settings.put({ key: PUSH_CONFIG_KEY, value: checked });
      await db.settings.delete(PUSH_OFF_KEY);
      if (token === '') await db.settings.delete(PUSH_TOKEN_KEY);
      else await db.settings.put({ key: PUSH_TOKEN_KEY, value: tokenValue });
    });
  } catch (error) {
    throw toStorageError(error);
  }
}

/**
 * `Turn off`: the settings, the token and the last push's status go; when it
 * was turned off stays, so the turn-off reaches the person's other devices
 * (shared-push-settings.ts).
 */
export async function turnOffPush(db: PausepointDb, now = Date.now()): Promise<void> {
  try {
    await db.transaction('rw', db.settings, async () => {
      await db.settings.bulkDelete([PUSH_CONFIG_KEY, PUSH_TOKEN_KEY, PUSH_STATUS_KEY]);
      await db.settings.put({ key: PUSH_OFF_KEY, value: { v: 1, savedAt: now } satisfies PushOff });
    });
  } catch (error) {
    throw toStorageError(error);
  }
}
