import { z } from 'zod';
import { API_KEYS_KEY, storedApiKeys, withApiKey } from './api-keys.ts';
import {
  ENDPOINT_HEADERS_KEY,
  headerNameProblem,
  headersFor,
  headerValueProblem,
  MAX_CUSTOM_HEADERS,
  storedEndpointHeaders,
  withEndpointHeaders,
  type CustomHeader,
} from './custom-headers.ts';
import type { PausepointDb, SettingRow } from './db.ts';
import type { ReadAlongside } from './read-only.ts';
import { endpointOrigin, PLAIN_HTTP_REFUSED, plainHttpAllowed } from './endpoint-origin.ts';
import { DECLINE_AFTER_HOURS } from './decline-after-hours.ts';
import { MAX_CUSTOM_INSTRUCTIONS_CHARS, MAX_TOKENS_LIMIT, PROVIDERS, SETTINGS_KEY } from './settings-constants.ts';
import { StorageError, toStorageError } from './storage-error.ts';
import { withStoredKey } from './with-stored-key.ts';

export { PROVIDERS } from './settings-constants.ts';

/** A bound against a pasted list, not a policy. */
export const MAX_PRICES = 200;
const Price = z.number().nonnegative().max(1_000_000);
export const ModelPriceRecord = z.object({ model: z.string().min(1).max(200), input: Price, output: Price, cached: Price.optional() });

/**
 * Where requests (and the API key) are sent: http(s) only, and plain http only
 * to this computer, so that no stored row — a crafted one included — can send
 * the key across a network unencrypted.
 */
export const EndpointUrl = z.url({ protocol: /^https?$/ }).refine(plainHttpAllowed, { message: PLAIN_HTTP_REFUSED });

/** A custom header as the form gives it: a name a browser may send, a value that cannot break the request. */
export const CustomHeaderRecord = z.object({
  name: z.string().superRefine((name, ctx) => {
    const problem = headerNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  value: z.string().superRefine((value, ctx) => {
    const problem = headerValueProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
});

/** At most MAX_CUSTOM_HEADERS, each name once (names are case-insensitive). */
const CustomHeaders = z
  .array(CustomHeaderRecord)
  .max(MAX_CUSTOM_HEADERS, { message: `At most ${MAX_CUSTOM_HEADERS} headers.` })
  .superRefine((headers, ctx) => {
    const seen = new Set<string>();
    headers.forEach(({ name }, index) => {
      const lower = name.toLowerCase();
      if (seen.has(lower)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `${name} is already set above.` });
      seen.add(lower);
    });
  });

export const Settings = z.object({
  provider: z.enum(PROVIDERS),
  baseUrl: EndpointUrl,
  /**
   * The key saved for `baseUrl`'s origin; may be empty (local endpoints such as
   * Ollama and LM Studio take none). Not part of the settings row: see api-keys.ts.
   */
  apiKey: z.string(),
  /**
   * Custom headers saved for `baseUrl`'s origin, sent with its every request.
   * Not part of the settings row: see custom-headers.ts. Absent when there are
   * none; when saving, absent leaves the origin's saved headers as they are.
   */
  headers: CustomHeaders.optional(),
  model: z.string(),
  /** Pause points expire after this many minutes; null means they never do. */
  expiryMinutes: z.number().int().positive().nullable().default(null),
  notifications: z.boolean().default(true),
  badge: z.boolean().default(true),
  /**
   * The most tokens one model answer may use; absent means DEFAULT_MAX_TOKENS.
   * Optional rather than defaulted, so rows and backups saved before it existed
   * read back and are written out again exactly as they were.
   */
  maxTokens: z.number().int().positive().max(MAX_TOKENS_LIMIT).optional(),
  /**
   * Minutes after which a card still pending notifies once more; absent means
   * off. Optional for the same reason as maxTokens.
   */
  reminderMinutes: z.number().int().positive().optional(),
  /**
   * `If nobody decides`: hours after which a card is declined automatically
   * (pause-expiry.ts: cardDeadline); absent keeps waiting. Optional for the same reason as maxTokens.
   */
  declineAfterHours: z.union(DECLINE_AFTER_HOURS.map((h) => z.literal(h))).optional(),
  /**
   * Spending limits (spending.ts): a model call that would pass one asks
   * first. Absent means no limit; optional for the same reason as maxTokens.
   */
  tokenLimit: z.number().int().positive().optional(),
  costLimit: z.number().positive().optional(),
  dailyCostLimit: z.number().positive().optional(),
  /** Prices per million tokens, per model id; absent until the user saves some (the prefilled ones apply till then). */
  prices: z.array(ModelPriceRecord).max(MAX_PRICES).optional(),
  /**
   * Sent with every model call after the app's own system prompt (build-request.ts),
   * which they add to and never replace. Absent means none; optional for the same reason as maxTokens.
   */
  customInstructions: z.string().max(MAX_CUSTOM_INSTRUCTIONS_CHARS).optional(),
});
export type Settings = z.output<typeof Settings>;
/** What a caller may pass to `saveSettings`: the fields with defaults may be left out. */
export type SettingsInput = z.input<typeof Settings>;
/** The settings as their row holds them: everything but the API key and the custom headers. */
export type SavedSettings = Omit<Settings, 'apiKey' | 'headers'>;

/**
 * All settings live in one row (`key: 'settings'`) rather than one row per field:
 * they are validated as a whole, written in one put, and read by one live query,
 * so no reader ever sees half of an old save mixed with half of a new one. The
 * row carries its own schema version like every stored record.
 */
export const StoredSettings = Settings.omit({ apiKey: true, headers: true }).extend({
  v: z.literal(1),
  /**
   * History: rows saved before database version 4 held the one API key here.
   * The upgrade moved it to the key store (move-api-key-to-origin.ts); it is
   * never read as a key, and no save writes it.
   */
  apiKey: z.string().optional(),
});
/** Fields a broken row can lose and still be read: they have defaults, or are not read at all. */
const DROPPABLE_FIELDS: ReadonlySet<PropertyKey> = new Set([
  'expiryMinutes',
  'notifications',
  'badge',
  'maxTokens',
  'reminderMinutes',
  'declineAfterHours',
  'apiKey',
  'tokenLimit',
  'costLimit',
  'dailyCostLimit',
  'prices',
  'customInstructions',
]);

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
  // One bulkGet reads both rows in one transaction: a save in between cannot pair one endpoint with another's key.
  const [row, keys, headers] = await db.settings.bulkGet([SETTINGS_KEY, API_KEYS_KEY, ENDPOINT_HEADERS_KEY]);
  const saved = row ? settingsFromRow(row.value, report) : undefined;
  return saved && withStoredHeaders(withStoredKey(saved, keys?.value), headers?.value);
}

/** The settings as read inside a loop step's transaction (see `settingsAlongside`). */
export class SettingsRead {
  constructor(readonly settings: Settings | undefined) {}
}

/**
 * `readSettings` as a read inside another read-only transaction: the worker's
 * storage makes it in each loop step's, so the model call that step makes is
 * built from the settings stored at that moment, without a transaction of its own.
 */
export const settingsAlongside: ReadAlongside<SettingsRead> = {
  stores: ['settings'],
  issue(transaction) {
    const store = transaction.objectStore('settings');
    const row = store.get(SETTINGS_KEY) as IDBRequest<SettingRow | undefined>;
    const keys = store.get(API_KEYS_KEY) as IDBRequest<SettingRow | undefined>;
    const headers = store.get(ENDPOINT_HEADERS_KEY) as IDBRequest<SettingRow | undefined>;
    return () => {
      const saved = row.result ? settingsFromRow(row.result.value) : undefined;
      return new SettingsRead(saved && withStoredHeaders(withStoredKey(saved, keys.result?.value), headers.result?.value));
    };
  },
};

/** Every saved API key by origin: the settings form shows each origin its own. */
export async function readApiKeys(db: PausepointDb): Promise<Map<string, string>> {
  return storedApiKeys((await db.settings.get(API_KEYS_KEY))?.value);
}

/**
 * The settings with the custom headers saved for their base URL's exact origin
 * and no other's; `headers` is left out when there are none. Here rather than
 * in withStoredKey: the page's live settings (live-settings.ts) carry no
 * headers — only the worker sends requests, and the form reads them itself —
 * so their checks stay out of the page's start-up.
 */
function withStoredHeaders(settings: Settings, headersValue: unknown): Settings {
  const headers = headersFor(headersValue, settings.baseUrl);
  return headers.length > 0 ? { ...settings, headers } : settings;
}

/** Every origin's saved custom headers: the settings form shows each origin its own. */
export async function readEndpointHeaders(db: PausepointDb): Promise<Map<string, CustomHeader[]>> {
  return storedEndpointHeaders((await db.settings.get(ENDPOINT_HEADERS_KEY))?.value);
}

/** The settings in a stored row's value, read as `readSettings` describes (the key is not in the row). */
export function settingsFromRow(value: unknown, report: CorruptSettingsReport = warnCorrupt): SavedSettings | undefined {
  const parsed = StoredSettings.safeParse(value);
  if (parsed.success) return withoutVersion(parsed.data);

  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(row)'}: ${issue.message}`);
  const broken = parsed.error.issues.map((issue) => issue.path[0]);
  const salvageable = broken.every((field) => field !== undefined && DROPPABLE_FIELDS.has(field));
  const salvaged = salvageable && isRecord(value) ? StoredSettings.safeParse(dropFields(value, broken)) : undefined;
  report({ salvaged: salvaged?.success === true, issues });
  return salvaged?.success ? withoutVersion(salvaged.data) : undefined;
}

/**
 * Validates and stores the settings, and the API key under the origin of their
 * base URL (an empty key removes that origin's key), and the custom headers
 * there too when given (none removes that origin's), in one transaction.
 * Returns them with defaults filled in.
 */
export async function saveSettings(db: PausepointDb, input: SettingsInput): Promise<Settings> {
  const parsed = Settings.safeParse(input);
  if (!parsed.success) {
    throw new StorageError('invalid', `Settings not saved: ${z.prettifyError(parsed.error)}`, { cause: parsed.error });
  }
  const { apiKey, headers, ...saved } = parsed.data;
  const origin = endpointOrigin(saved.baseUrl);
  // Unreachable: EndpointUrl accepts only http(s) URLs, and every one of them has an origin.
  if (origin === undefined) throw new StorageError('invalid', 'Settings not saved: the base URL has no origin.');
  try {
    await db.transaction('rw', db.settings, async () => {
      const [keys, headerRow] = await db.settings.bulkGet([API_KEYS_KEY, ENDPOINT_HEADERS_KEY]);
      await db.settings.bulkPut([
        { key: SETTINGS_KEY, value: { v: 1, ...saved } },
        { key: API_KEYS_KEY, value: withApiKey(keys?.value, origin, apiKey) },
        ...(headers === undefined ? [] : [{ key: ENDPOINT_HEADERS_KEY, value: withEndpointHeaders(headerRow?.value, origin, headers) }]),
      ]);
    });
  } catch (error) {
    throw toStorageError(error);
  }
  // As `readSettings` will read them: no `headers` when the origin has none.
  return { ...saved, apiKey, ...(headers?.length ? { headers } : {}) };
}

/**
 * This browser's id, created once and kept: it says which device decided a
 * pause point. One transaction, so two tabs starting together agree on one id.
 * A stored value that is not a non-empty string is replaced: the id only labels
 * decisions, and a new label is harmless where an unreadable one is not.
 */
export async function deviceId(db: PausepointDb, uuid: () => string = () => crypto.randomUUID()): Promise<string> {
  try {
    return await db.transaction('rw', db.settings, () => deviceIdIn(db, uuid));
  } catch (error) {
    throw toStorageError(error);
  }
}

/** `deviceId`, in the caller's `rw` transaction over `settings` (one that writes what this device made: a rule event). */
export async function deviceIdIn(db: PausepointDb, uuid: () => string = () => crypto.randomUUID()): Promise<string> {
  const row = await db.settings.get(DEVICE_ID_KEY);
  if (typeof row?.value === 'string' && row.value !== '') return row.value;
  const id = uuid();
  await db.settings.put({ key: DEVICE_ID_KEY, value: id });
  return id;
}

function withoutVersion({ v: _v, apiKey: _legacy, ...settings }: z.output<typeof StoredSettings>): SavedSettings {
  return settings;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dropFields(value: Record<string, unknown>, fields: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !fields.includes(key)));
}
