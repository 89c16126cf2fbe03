import { apiKeyFor } from './api-keys.ts';
import type { SavedSettings, Settings } from './settings-repo.ts';

/** The settings with the key saved for their base URL's exact origin ('' when there is none), and no other. */
export function withStoredKey(saved: SavedSettings, apiKeysValue: unknown): Settings {
  return { ...saved, apiKey: apiKeyFor(apiKeysValue, saved.baseUrl) };
}
