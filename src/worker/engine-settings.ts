import type { SettingsPort } from '../engine/settings-port.ts';
import { costOf, NO_LIMITS, type SpendingSettings } from '../engine/spending.ts';
import { pricesFor } from '../model/known-prices.ts';
import type { PausepointDb } from '../storage/db.ts';
import { readSettings, SettingsRead, type Settings } from '../storage/settings-repo.ts';
import { startOfDay, usageSince } from '../storage/usage-repo.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The engine's settings port over the stored settings row, read afresh each
 * time: a run this tab recovers for another, before any model call, and a
 * setting saved in another tab get the stored values.
 */
export function engineSettings(db: PausepointDb, now: () => number = Date.now): SettingsPort {
  return {
    async expiryMs() {
      const minutes = (await readSettings(db))?.expiryMinutes ?? null;
      return minutes === null ? null : minutes * MINUTE;
    },
    async declineAfterMs() {
      // End-to-end tests only: a build with PAUSEPOINT_PROBES=1 lets a test shorten the wait (tests/e2e/push.spec.ts);
      // in any other build the condition is the constant false and the branch is not in the bundle.
      if (import.meta.env.PAUSEPOINT_PROBES) {
        const probe = (await db.settings.get('probeDeclineAfterMs'))?.value;
        if (typeof probe === 'number' && probe > 0) return probe;
      }
      const hours = (await readSettings(db))?.declineAfterHours;
      return hours === undefined ? null : hours * HOUR;
    },
    async spending(alongside) {
      // The step's read brings the settings along (settings-repo.ts: settingsAlongside); a carried step does not.
      const settings = alongside instanceof SettingsRead ? alongside.settings : await readSettings(db);
      return spendingFrom(settings, settings?.dailyCostLimit === undefined ? 0 : await spentSince(db, startOfDay(now()), settings));
    },
    async instructions(alongside) {
      const settings = alongside instanceof SettingsRead ? alongside.settings : await readSettings(db);
      return settings?.customInstructions;
    },
  };
}

function spendingFrom(settings: Settings | undefined, spentToday: number): SpendingSettings {
  if (!settings) return { limits: NO_LIMITS, prices: [], model: '', spentToday: 0 };
  return {
    limits: {
      tokensPerConversation: settings.tokenLimit ?? null,
      costPerConversation: settings.costLimit ?? null,
      costPerDay: settings.dailyCostLimit ?? null,
    },
    prices: pricesFor(settings),
    model: settings.model,
    spentToday,
  };
}

/** Only read when a daily limit is set: it reads the day's messages. */
async function spentSince(db: PausepointDb, since: number, settings: Settings): Promise<number> {
  const prices = pricesFor(settings);
  return (await usageSince(db, since)).reduce((sum, { usage }) => sum + costOf(usage, prices), 0);
}
