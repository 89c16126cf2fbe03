import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { saveSettings } from '../storage/settings-repo.ts';
import { engineSettings } from './engine-settings.ts';

const OLLAMA = { provider: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: '', model: 'llama3.2' } as const;

describe('the engine’s settings port over the stored settings', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('reads the stored expiry each time it is asked, with no model call before', async () => {
    const settings = engineSettings(db);
    expect(await settings.expiryMs()).toBeNull();
    await saveSettings(db, { ...OLLAMA, expiryMinutes: 15 });
    expect(await settings.expiryMs()).toBe(15 * 60_000);
    await saveSettings(db, { ...OLLAMA, expiryMinutes: null });
    expect(await settings.expiryMs()).toBeNull();
  });
});
