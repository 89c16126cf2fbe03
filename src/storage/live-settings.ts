import { liveQuery, type Observable } from 'dexie';
import { API_KEYS_KEY } from './api-keys.ts';
import type { PausepointDb } from './db.ts';
import { plainHttpAllowed } from './endpoint-origin.ts';
import { MAX_TOKENS_LIMIT, PROVIDERS, SETTINGS_KEY } from './settings-constants.ts';
import type { SavedSettings, Settings } from './settings-repo.ts';
import { withStoredKey } from './with-stored-key.ts';

/**
 * The saved settings, live, exactly as `readSettings` reads them (less the
 * spending fields, which the page does not read: see below) — without
 * loading zod into the page for the common case.
 *
 * The page reads settings on every start (setup or app?) and on every save in
 * any tab; the row was validated with the zod schema when it was saved, and the
 * worker validates it again before anything is sent with it. So a well-formed
 * row — every field present with the type the schema gives it, nothing zod
 * would transform — is taken as is, and anything else (a missing field, an old
 * or corrupt row) goes through the schema itself, loaded on demand, which
 * reports the problem and salvages what it can. A test checks that both paths
 * give the same answer for each kind of row.
 */
export function liveSettings(db: PausepointDb): Observable<Settings | undefined> {
  return liveQuery(async () => pageSettings(db));
}

/** What `liveSettings` emits, read once. */
export async function pageSettings(db: PausepointDb): Promise<Settings | undefined> {
  const [row, keys] = await db.settings.bulkGet([SETTINGS_KEY, API_KEYS_KEY]);
  if (!row) return undefined;
  let saved = wellFormedSettings(row.value);
  if (!saved) {
    const { settingsFromRow } = await import('./settings-repo.ts');
    saved = settingsFromRow(row.value);
  }
  return saved && withStoredKey(saved, keys?.value);
}

const PROVIDER_SET: ReadonlySet<unknown> = new Set(PROVIDERS);

/*
 * The spending limits and prices are not part of the page's settings: the
 * views that show or edit them read them where they are shown (the usage
 * line, the Usage and limits panel), so their checks stay out of the page's
 * start-up. The quick path leaves them out; the schema's path, for odd rows
 * only, may carry them, and nothing on the page reads them there.
 */

/** The settings in a stored row when the row is exactly what a save writes; undefined when it needs the schema's judgement. */
export function wellFormedSettings(value: unknown): SavedSettings | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const row = value as Record<string, unknown>;
  const { provider, baseUrl, model, expiryMinutes, notifications, badge, maxTokens, reminderMinutes } = row;
  if (row.v !== 1 || !PROVIDER_SET.has(provider)) return undefined;
  if (typeof baseUrl !== 'string' || !isPlainHttpUrl(baseUrl) || !plainHttpAllowed(baseUrl)) return undefined;
  if (typeof model !== 'string') return undefined;
  if (expiryMinutes !== null && !(Number.isSafeInteger(expiryMinutes) && (expiryMinutes as number) > 0)) return undefined;
  if (typeof notifications !== 'boolean' || typeof badge !== 'boolean') return undefined;
  if (maxTokens !== undefined && !(Number.isSafeInteger(maxTokens) && (maxTokens as number) > 0 && (maxTokens as number) <= MAX_TOKENS_LIMIT)) {
    return undefined;
  }
  if (reminderMinutes !== undefined && !(Number.isSafeInteger(reminderMinutes) && (reminderMinutes as number) > 0)) return undefined;
  // A new object with only the schema's fields, as zod's parse returns (an old row's `apiKey` is not one of them).
  return {
    provider: provider as Settings['provider'],
    baseUrl,
    model,
    expiryMinutes: expiryMinutes as number | null,
    notifications,
    badge,
    ...(maxTokens === undefined ? {} : { maxTokens: maxTokens as number }),
    ...(reminderMinutes === undefined ? {} : { reminderMinutes: reminderMinutes as number }),
  };
}

/**
 * An http(s) URL that the schema's `z.url({ protocol: /^https?$/ })` accepts
 * and leaves unchanged: scheme and `//` present, no whitespace to trim or strip.
 */
function isPlainHttpUrl(text: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
