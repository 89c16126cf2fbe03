import type { SettingsPort } from '../engine/settings-port.ts';
import type { PausepointDb } from '../storage/db.ts';
import { readSettings } from '../storage/settings-repo.ts';

const MINUTE = 60_000;

/**
 * The engine's settings port over the stored settings row, read afresh each
 * time: a run this tab recovers for another, before any model call, and a
 * setting saved in another tab get the stored values.
 */
export function engineSettings(db: PausepointDb): SettingsPort {
  return {
    async expiryMs() {
      const minutes = (await readSettings(db))?.expiryMinutes ?? null;
      return minutes === null ? null : minutes * MINUTE;
    },
  };
}
