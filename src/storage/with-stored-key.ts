import { apiKeyFor } from './api-keys.ts';
import { headersFor } from './custom-headers.ts';
import type { SavedSettings, Settings } from './settings-repo.ts';

/**
 * The settings with the key and the custom headers saved for their base URL's
 * exact origin ('' and none when there are none), and no other origin's.
 * `headers` is left out when there are none, so settings without any read as before.
 */
export function withStoredKey(saved: SavedSettings, apiKeysValue: unknown, headersValue?: unknown): Settings {
  const headers = headersFor(headersValue, saved.baseUrl);
  return { ...saved, apiKey: apiKeyFor(apiKeysValue, saved.baseUrl), ...(headers.length > 0 ? { headers } : {}) };
}
