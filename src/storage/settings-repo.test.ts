import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { PausepointDb } from './db.ts';
import { useTestDb } from './testing/open-test-db.ts';
import { liveSettings } from './live-settings.ts';
import { deviceId, readApiKeys, readSettings, saveSettings, type CorruptSettingsReport } from './settings-repo.ts';
import { StorageError } from './storage-error.ts';
import { waitForEmission } from './wait-for-emission.ts';

const OLLAMA = { provider: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: '', model: 'llama3.2' } as const;

describe('settings repository', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('reads undefined before the first save', async () => {
    expect(await readSettings(db)).toBeUndefined();
  });

  it('round-trips, filling in defaults', async () => {
    const saved = await saveSettings(db, OLLAMA);
    expect(saved).toEqual({ ...OLLAMA, expiryMinutes: null, notifications: true, badge: true });
    expect(await readSettings(db)).toEqual(saved);
    const changed = await saveSettings(db, { ...saved, expiryMinutes: 30, badge: false });
    expect(await readSettings(db)).toEqual(changed);
  });

  it('refuses to save invalid settings, including a non-http base URL', async () => {
    await expect(saveSettings(db, { ...OLLAMA, baseUrl: 'javascript:alert(1)' })).rejects.toBeInstanceOf(StorageError);
    await expect(saveSettings(db, { ...OLLAMA, expiryMinutes: -5 })).rejects.toMatchObject({ code: 'invalid' });
    expect(await readSettings(db)).toBeUndefined();
  });

  it('a corrupt optional field falls back to its default and keeps the endpoint and key', async () => {
    const { apiKey: _, ...row } = OLLAMA;
    await db.settings.bulkPut([
      { key: 'settings', value: { v: 1, ...row, notifications: 'yes', badge: 3, maxTokens: -1 } },
      { key: 'apiKeys', value: { v: 1, keys: { 'http://localhost:11434': 'sk-secret' } } },
    ]);
    const report = vi.fn<CorruptSettingsReport>();
    expect(await readSettings(db, report)).toEqual({ ...OLLAMA, apiKey: 'sk-secret', expiryMinutes: null, notifications: true, badge: true });
    expect(report).toHaveBeenCalledWith({
      salvaged: true,
      issues: [expect.stringMatching(/^notifications:/), expect.stringMatching(/^badge:/), expect.stringMatching(/^maxTokens:/)],
    });
    expect(JSON.stringify(report.mock.calls)).not.toContain('sk-secret');
  });

  it('stores each key under its base URL’s origin and reads back only the key of the exact origin', async () => {
    await saveSettings(db, { provider: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-openai', model: 'gpt-4o-mini' });
    const row = await db.settings.get('settings');
    expect(row?.value).not.toHaveProperty('apiKey');
    expect(await readSettings(db)).toMatchObject({ provider: 'openai', apiKey: 'sk-openai' });

    // Another origin starts with no key, even for a provider that takes one.
    expect(await saveSettings(db, { provider: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', apiKey: '', model: 'm' })).toMatchObject({ apiKey: '' });
    expect(await readSettings(db)).toMatchObject({ provider: 'openrouter', apiKey: '' });
    // Same host, another port or scheme: another origin.
    await saveSettings(db, { ...OLLAMA, apiKey: 'ollama-key' });
    await saveSettings(db, { ...OLLAMA, baseUrl: 'http://localhost:1234/v1' });
    expect((await readSettings(db))?.apiKey).toBe('');
    // A path on the same origin shares its key; switching back finds the key saved for it.
    await saveSettings(db, { provider: 'custom', baseUrl: 'https://api.openai.com/other/v1', apiKey: 'sk-openai', model: 'm' });
    expect(await readApiKeys(db)).toEqual(new Map([['https://api.openai.com', 'sk-openai'], ['http://localhost:11434', 'ollama-key']]));
    // Saving an origin with an empty key removes that origin's key only.
    await saveSettings(db, { ...OLLAMA, apiKey: '' });
    expect(await readApiKeys(db)).toEqual(new Map([['https://api.openai.com', 'sk-openai']]));
  });

  it('plain http is for this computer only, in a save and in a stored row alike', async () => {
    for (const baseUrl of ['http://gateway.example/v1', 'http://192.168.1.20:11434/v1', 'http://localhost.evil.example/v1', 'http://[::2]/v1']) {
      await expect(saveSettings(db, { ...OLLAMA, baseUrl })).rejects.toMatchObject({ code: 'invalid', message: expect.stringMatching(/only for this computer/) });
    }
    for (const baseUrl of ['http://localhost:11434/v1', 'http://LOCALHOST:1/v1', 'http://127.0.0.1:1234/v1', 'http://127.45.6.7/v1', 'http://[::1]:8080/v1', 'http://127.1/v1']) {
      await expect(saveSettings(db, { ...OLLAMA, baseUrl }), baseUrl).resolves.toMatchObject({ baseUrl });
    }
    // A crafted row pointing at another host over plain http reads as never saved, key or no key.
    const { apiKey: _, ...row } = OLLAMA;
    await db.settings.bulkPut([
      { key: 'settings', value: { v: 1, ...row, baseUrl: 'http://gateway.example/v1' } },
      { key: 'apiKeys', value: { v: 1, keys: { 'http://gateway.example': 'sk-crafted' } } },
    ]);
    expect(await readSettings(db, () => {})).toBeUndefined();
  });

  it('max tokens per answer is kept when saved and absent (the default) in older rows', async () => {
    expect(await saveSettings(db, { ...OLLAMA, maxTokens: 1200 })).toMatchObject({ maxTokens: 1200 });
    expect(await readSettings(db)).toMatchObject({ maxTokens: 1200 });
    expect(await saveSettings(db, OLLAMA)).not.toHaveProperty('maxTokens');
    await expect(saveSettings(db, { ...OLLAMA, maxTokens: 0 })).rejects.toMatchObject({ code: 'invalid' });
    await expect(saveSettings(db, { ...OLLAMA, maxTokens: 2.5 })).rejects.toMatchObject({ code: 'invalid' });
  });

  it.each([
    ['a broken essential field', { v: 1, ...OLLAMA, baseUrl: 42 }],
    ['an unknown version', { v: 2, ...OLLAMA }],
    ['a value that is not an object', 'garbage'],
    ['null', null],
  ])('%s reads as never saved, and is reported', async (_case, value) => {
    await db.settings.put({ key: 'settings', value });
    const report = vi.fn<CorruptSettingsReport>();
    expect(await readSettings(db, report)).toBeUndefined();
    expect(report).toHaveBeenCalledWith(expect.objectContaining({ salvaged: false }));
  });

  it('the default report warns without the row’s values', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await db.settings.put({ key: 'settings', value: { v: 1, ...OLLAMA, apiKey: 'sk-secret', provider: 'acme' } });
      expect(await readSettings(db)).toBeUndefined();
      expect(warn).toHaveBeenCalledOnce();
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/provider/);
      expect(String(warn.mock.calls[0]?.[0])).not.toContain('sk-secret');
    } finally {
      warn.mockRestore();
    }
  });

  it('liveSettings emits after a save', async () => {
    const live = liveSettings(db);
    expect(await waitForEmission(live, () => true)).toBeUndefined();
    const next = waitForEmission(live, (value) => value !== undefined);
    await saveSettings(db, OLLAMA);
    expect(await next).toMatchObject({ model: 'llama3.2' });
  });

  it('deviceId is created once and stays the same, even when asked concurrently', async () => {
    let n = 0;
    const uuid = () => `device-${++n}`;
    const [a, b] = await Promise.all([deviceId(db, uuid), deviceId(db, uuid)]);
    expect(a).toBe('device-1');
    expect(b).toBe('device-1');
    expect(await deviceId(db)).toBe('device-1');
  });

  it('deviceId replaces a stored value that is not an id', async () => {
    await db.settings.put({ key: 'deviceId', value: { not: 'an id' } });
    const id = await deviceId(db);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await deviceId(db)).toBe(id);
  });
});
