import type { Table } from 'dexie';
import { API_KEYS_KEY, storedApiKeys, withApiKey } from './api-keys.ts';
import type { SettingRow } from './db.ts';
import { endpointOrigin } from './endpoint-origin.ts';
import { SETTINGS_KEY } from './settings-constants.ts';

/**
 * The upgrade to database version 4: the settings row's single `apiKey` moves
 * to the key store under the origin of the row's own `baseUrl` — the only
 * endpoint it was ever sent to — and leaves the row. A key the store already
 * has for that origin wins. A row whose base URL cannot be read keeps its key
 * where it is: such a row reads as never saved, so the key is used nowhere, and
 * backups never copy it.
 */
export async function moveApiKeyToOrigin(settings: Table<SettingRow, string>): Promise<void> {
  const row = await settings.get(SETTINGS_KEY);
  const value = row?.value;
  if (typeof value !== 'object' || value === null || !('apiKey' in value)) return;
  const { apiKey, ...rest } = value as Record<string, unknown>;
  const origin = typeof rest.baseUrl === 'string' ? endpointOrigin(rest.baseUrl) : undefined;
  if (typeof apiKey !== 'string' || origin === undefined) return;
  if (apiKey.trim() !== '') {
    const keys = await settings.get(API_KEYS_KEY);
    if (!storedApiKeys(keys?.value).has(origin)) {
      await settings.put({ key: API_KEYS_KEY, value: withApiKey(keys?.value, origin, apiKey.trim()) });
    }
  }
  await settings.put({ key: SETTINGS_KEY, value: rest });
}
