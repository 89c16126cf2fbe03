import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { PausepointDb } from './db.ts';
import { useTestDb } from './open-test-db.ts';
import { liveSettings } from './live-settings.ts';
import { deviceId, readSettings, saveSettings, type CorruptSettingsReport } from './settings-repo.ts';
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
    await db.settings.put({ key: 'settings', value: { v: 1, ...OLLAMA, apiKey: 'sk-secret', notifications: 'yes', badge: 3 } });
    const report = vi.fn<CorruptSettingsReport>();
    expect(await readSettings(db, report)).toEqual({ ...OLLAMA, apiKey: 'sk-secret', expiryMinutes: null, notifications: true, badge: true });
    expect(report).toHaveBeenCalledWith({ salvaged: true, issues: [expect.stringMatching(/^notifications:/), expect.stringMatching(/^badge:/)] });
    expect(JSON.stringify(report.mock.calls)).not.toContain('sk-secret');
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
