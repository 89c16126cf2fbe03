import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { readSettings, saveSettings, SettingsRead } from '../storage/settings-repo.ts';
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

  it('reads the limits, the prices that apply (prefilled until saved) and what every conversation spent today', async () => {
    const now = new Date(2026, 0, 15, 12, 0).getTime();
    const settings = engineSettings(db, () => now);
    await saveSettings(db, { ...OLLAMA, tokenLimit: 5000 });
    expect(await settings.spending?.()).toMatchObject({
      limits: { tokensPerConversation: 5000, costPerConversation: null, costPerDay: null },
      model: 'llama3.2',
      spentToday: 0,
    });
    expect((await settings.spending?.())?.prices.map((p) => p.model)).toContain('gpt-4o-mini');

    const call = (id: string, conversationId: string, at: number) => ({
      v: 1 as const,
      id,
      conversationId,
      seq: 0,
      createdAt: at,
      role: 'assistant' as const,
      content: '',
      toolCalls: [],
      turnIndex: 0,
      status: 'complete' as const,
      usage: { model: 'llama3.2', prompt: 1_000_000, completion: 0, cached: 0, reasoning: 0 },
    });
    const conversation = (id: string, updatedAt: number) => ({ v: 1 as const, id, title: id, createdAt: 0, updatedAt, state: { kind: 'idle' as const }, turns: 1, nextSeq: 1 });
    const yesterday = now - 24 * 3_600_000;
    await db.conversations.bulkPut([conversation('a', now - 1000), conversation('b', now - 2000), conversation('old', yesterday)]);
    await db.messages.bulkPut([call('m1', 'a', now - 1000), call('m2', 'b', now - 2000), call('m3', 'old', yesterday)]);
    await saveSettings(db, { ...OLLAMA, dailyCostLimit: 10, prices: [{ model: 'llama3.2', input: 2, output: 4 }] });
    expect(await settings.spending?.()).toMatchObject({ limits: { costPerDay: 10 }, prices: [{ model: 'llama3.2', input: 2, output: 4 }], spentToday: 4 });
  });

  it('takes the settings a step read along with it instead of reading them again', async () => {
    await saveSettings(db, { ...OLLAMA, tokenLimit: 5000 });
    const stored = await readSettings(db);
    const settings = engineSettings(db);
    // What the step read is what applies, even if the row changed since: it is the step's own snapshot.
    const read = new SettingsRead({ ...stored!, tokenLimit: 7000 });
    expect((await settings.spending?.(read))?.limits.tokensPerConversation).toBe(7000);
    expect((await settings.spending?.(undefined))?.limits.tokensPerConversation).toBe(5000);
  });
});
