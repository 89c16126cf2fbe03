import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { OpenAIModel } from '../model/openai-model.ts';
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

  it('rehearses one completion through the adapter and the SDK, answered in the worker: nothing reaches the network', async () => {
    await saveSettings(db, { provider: 'custom', baseUrl: 'http://127.0.0.1:9/rehearse/v1', apiKey: 'sk-rehearse', model: 'warm-model' });
    const network = vi.spyOn(globalThis, 'fetch');
    const complete = vi.spyOn(OpenAIModel.prototype, 'complete');
    try {
      await warmUp(db);
      expect(complete).toHaveBeenCalledOnce();
      await expect(complete.mock.results[0]!.value).resolves.toMatchObject({ finishReason: expect.any(String) });
      expect(network).not.toHaveBeenCalled();
    } finally {
      network.mockRestore();
      complete.mockRestore();
    }
  });

  it('builds nothing before the app is set up, and does not fail', async () => {
    expect(await warmUp(db)).toBeUndefined();
  });
});
