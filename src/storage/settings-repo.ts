import { z } from 'zod';
import type { PausepointDb } from './db.ts';
import { PROVIDERS, SETTINGS_KEY } from './settings-constants.ts';
import { StorageError, toStorageError } from './storage-error.ts';

export { PROVIDERS } from './settings-constants.ts';

export const Settings = z.object({
  provider: z.enum(PROVIDERS),
  /** Only http(s): this is where requests (and the API key) are sent. */
  baseUrl: z.url({ protocol: /^https?$/ }),
  /** May be empty: local endpoints (Ollama, LM Studio) take no key. */
  apiKey: z.string(),
  model: z.string(),
  /** Pause points expire after this many minutes; null means they never do. */
  expiryMinutes: z.number().int().positive().nullable().default(null),
  notifications: z.boolean().default(true),
  badge: z.boolean().default(true),
});
export type Settings = z.output<typeof Settings>;
/** What a caller may pass to `saveSettings`: the fields with defaults may be left out. */
export type SettingsInput = z.input<typeof Settings>;

/**
 * All settings live in one row (`key: 'settings'`) rather than one row per field:
 * they are validated as a whole, written in one put, and read by one live query,
 * so no reader ever sees half of an old save mixed with half of a new one. The
 * row carries its own schema version like every stored record.
 */
export const StoredSettings = Settings.extend({ v: z.literal(1) });
const DEFAULTED_FIELDS: ReadonlySet<PropertyKey> = new Set(['expiryMinutes', 'notifications', 'badge']);

const DEVICE_ID_KEY = 'deviceId';

export type CorruptSettingsReport = (problem: { salvaged: boolean; issues: string[] }) => void;

/** Names the broken fields only: the row holds the API key, which must never reach a log. */
const warnCorrupt: CorruptSettingsReport = ({ salvaged, issues }) => {
  console.warn(`Stored settings were invalid (${issues.join('; ')}); ${salvaged ? 'defaults were used for those fields' : 'they were ignored'}.`);
};

/**
 * The saved settings, or undefined when they were never saved. A corrupt row is
 * reported and then read as safely as it can be: a broken field that has a
 * default gets its default (the user keeps their endpoint and key); a broken
 * essential field makes the whole row read as never saved, so the app asks
 * for setup again rather than sending requests somewhere unintended. The row
 * itself is left in place until the next save replaces it.
 */
export async function readSettings(db: PausepointDb, report: CorruptSettingsReport = warnCorrupt): Promise<Settings | undefined> {
  const row = await db.settings.get(SETTINGS_KEY);
  return row ? settingsFromRow(row.value, report) : undefined;
}

/** The settings in a stored row's value, read as `readSettings` describes. */
export function settingsFromRow(value: unknown, report: CorruptSettingsReport = warnCorrupt): Settings | undefined {
  const parsed = StoredSettings.safeParse(value);
  if (parsed.success) return withoutVersion(parsed.data);

  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(row)'}: ${issue.message}`);
  const broken = parsed.error.issues.map((issue) => issue.path[0]);
  const salvageable = broken.every((field) => field !== undefined && DEFAULTED_FIELDS.has(field));
  const salvaged = salvageable && isRecord(value) ? StoredSettings.safeParse(dropFields(value, broken)) : undefined;
  report({ salvaged: salvaged?.success === true, issues });
  return salvaged?.success ? withoutVersion(salvaged.data) : undefined;
}

/** Validates and stores the settings; returns them with defaults filled in. */
export async function saveSettings(db: PausepointDb, input: SettingsInput): Promise<Settings> {
  const parsed = Settings.safeParse(input);
  if (!parsed.success) {
    throw new StorageError('invalid', `Settings not saved: ${z.prettifyError(parsed.error)}`, { cause: parsed.error });
  }
  try {
    await db.settings.put({ key: SETTINGS_KEY, value: { v: 1, ...parsed.data } });
  } catch (error) {
    throw toStorageError(error);
  }
  return parsed.data;
}

/**
 * This browser's id, created once and kept: it says which device decided a
 * pause point. One transaction, so two tabs starting together agree on one id.
 * A stored value that is not a non-empty string is replaced: the id only labels
 * decisions, and a new label is harmless where an unreadable one is not.
 */
export async function deviceId(db: PausepointDb, uuid: () => string = () => crypto.randomUUID()): Promise<string> {
  try {
    return await db.transaction('rw', db.settings, async () => {
      const row = await db.settings.get(DEVICE_ID_KEY);
      if (typeof row?.value === 'string' && row.value !== '') return row.value;
      const id = uuid();
      await db.settings.put({ key: DEVICE_ID_KEY, value: id });
      return id;
    });
  } catch (error) {
    throw toStorageError(error);
  }
}

function withoutVersion({ v: _v, ...settings }: z.output<typeof StoredSettings>): Settings {
  return settings;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dropFields(value: Record<string, unknown>, fields: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !fields.includes(key)));
}
