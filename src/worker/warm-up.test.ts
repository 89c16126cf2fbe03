import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { readSettings, saveSettings } from '../storage/settings-repo.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { modelFromSettings } from './model-from-settings.ts';
import { warmUp } from './warm-up.ts';

describe('warmUp', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('builds the model for the stored settings ahead of the first call, which then gets that same model', async () => {
    await saveSettings(db, { provider: 'custom', baseUrl: 'http://127.0.0.1:9/warm-up/v1', apiKey: 'sk-warm', model: 'warm-model' });
    const warmed = await warmUp(db);
    expect(warmed).toBeDefined();
    expect(await modelFromSettings(await readSettings(db))).toBe(warmed);
  });

  it('builds nothing before the app is set up, and does not fail', async () => {
    expect(await warmUp(db)).toBeUndefined();
  });
});
