import { endpointOrigin } from './endpoint-origin.ts';

/**
 * API keys, one per endpoint origin, in a row of their own (`key: 'apiKeys'`)
 * beside the settings row: a key is only ever read for the origin it was saved
 * under, so switching provider or base URL can never carry one key to another
 * server. Backups and audit exports read the settings row only, never this one.
 *
 * Read without zod, like the settings row's quick path (live-settings.ts): the
 * page reads it on every start. Anything not exactly as written reads as no key.
 */
export const API_KEYS_KEY = 'apiKeys';

export interface ApiKeysValue {
  v: 1;
  /** Origin (`https://openrouter.ai`) → key. */
  keys: Record<string, string>;
}

/** The saved keys by origin; an unreadable row holds none. A Map: stored origins are data, not property names. */
export function storedApiKeys(value: unknown): Map<string, string> {
  const keys = new Map<string, string>();
  if (!isRecord(value) || value.v !== 1 || !isRecord(value.keys)) return keys;
  for (const [origin, key] of Object.entries(value.keys)) {
    if (typeof key === 'string' && key !== '' && endpointOrigin(origin) === origin) keys.set(origin, key);
  }
  return keys;
}

/** The key saved for the base URL's own origin, or '' when there is none. */
export function apiKeyFor(value: unknown, baseUrl: string): string {
  const origin = endpointOrigin(baseUrl);
  return origin === undefined ? '' : (storedApiKeys(value).get(origin) ?? '');
}

/** The row with `key` saved for `origin`; an empty key removes the origin's entry. */
export function withApiKey(value: unknown, origin: string, key: string): ApiKeysValue {
  const keys = storedApiKeys(value);
  if (key === '') keys.delete(origin);
  else keys.set(origin, key);
  return { v: 1, keys: Object.fromEntries(keys) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
