import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { PausepointDb } from './db.ts';
import { liveSettings, wellFormedSettings } from './live-settings.ts';
import { useTestDb } from './testing/open-test-db.ts';
import { readSettings, saveSettings, settingsFromRow } from './settings-repo.ts';
import { waitForEmission } from './wait-for-emission.ts';

const saved = {
  v: 1,
  provider: 'openai',
  baseUrl: 'https://api.openai.com/v1',
  apiKey: 'sk-x',
  model: 'gpt-4o-mini',
  expiryMinutes: 30,
  notifications: true,
  badge: false,
};

/** Rows of every kind: as saved, odd but valid, salvageable, and broken. */
const rows: [string, unknown][] = [
  ['as saved', saved],
  ['no expiry', { ...saved, expiryMinutes: null }],
  ['keyless local endpoint', { ...saved, provider: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: '' }],
  ['an extra field', { ...saved, extra: 'dropped' }],
  ['upper-case scheme', { ...saved, baseUrl: 'HTTPS://api.openai.com/v1' }],
  ['surrounding spaces in the URL', { ...saved, baseUrl: '  https://api.openai.com/v1  ' }],
  ['a tab inside the URL', { ...saved, baseUrl: 'https://api.open\tai.com/v1' }],
  ['a scheme without //', { ...saved, baseUrl: 'https:api.openai.com' }],
  ['an ftp URL', { ...saved, baseUrl: 'ftp://example.com' }],
  ['a javascript URL', { ...saved, baseUrl: 'javascript:alert(1)' }],
  ['not a URL', { ...saved, baseUrl: 'https://' }],
  ['missing defaulted fields (an older save)', { v: 1, provider: 'demo', baseUrl: 'https://demo.pausepoint.invalid/v1', apiKey: '', model: 'm' }],
  ['broken defaulted fields', { ...saved, notifications: 'yes', badge: 3, expiryMinutes: -1 }],
  ['a fractional expiry', { ...saved, expiryMinutes: 1.5 }],
  ['an infinite expiry', { ...saved, expiryMinutes: Infinity }],
  ['an unknown provider', { ...saved, provider: 'acme' }],
  ['a prototype key as provider', { ...saved, provider: '__proto__' }],
  ['a numeric key', { ...saved, apiKey: 42 }],
  ['a row without the key (as saved since keys are per origin)', { ...saved, apiKey: undefined }],
  ['plain http to this computer', { ...saved, baseUrl: 'http://127.0.0.1:8080/v1' }],
  ['plain http to another host', { ...saved, baseUrl: 'http://gateway.example/v1' }],
  ['max tokens', { ...saved, maxTokens: 2048 }],
  ['max tokens of zero', { ...saved, maxTokens: 0 }],
  ['max tokens beyond the limit', { ...saved, maxTokens: 10_000_000 }],
  ['fractional max tokens', { ...saved, maxTokens: 1.5 }],
  ['a reminder after 15 minutes', { ...saved, reminderMinutes: 15 }],
  ['a reminder of zero minutes', { ...saved, reminderMinutes: 0 }],
  ['a reminder as text', { ...saved, reminderMinutes: '15' }],
  ['a missing model', { ...saved, model: undefined }],
  ['another version', { ...saved, v: 2 }],
  ['an array', [saved]],
  ['a string', 'garbage'],
  ['null', null],
];

describe('liveSettings', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it.each(rows)('%s: the quick check agrees with the schema, or defers to it', (_case, value) => {
    const quick = wellFormedSettings(value);
    if (quick !== undefined) expect(quick).toEqual(settingsFromRow(value, () => {}));
  });

  it.each(rows)('%s: reads what readSettings reads, with the key of the row’s own origin', async (_case, value) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await db.settings.bulkPut([
        { key: 'settings', value },
        { key: 'apiKeys', value: { v: 1, keys: { 'https://api.openai.com': 'sk-stored', 'http://127.0.0.1:8080': 'sk-local' } } },
      ]);
      const live = await waitForEmission(liveSettings(db), () => true);
      expect(live).toEqual(await readSettings(db));
    } finally {
      warn.mockRestore();
    }
  });

  it('takes a row as saved without the schema', async () => {
    const { apiKey, ...settings } = await saveSettings(db, { provider: 'demo', baseUrl: 'https://demo.pausepoint.invalid/v1', apiKey: '', model: 'pausepoint-demo' });
    const row = await db.settings.get('settings');
    expect(wellFormedSettings(row?.value)).toEqual(settings);
    expect(apiKey).toBe('');
  });

  it('follows a key saved for the current origin, and ignores keys of other origins', async () => {
    await saveSettings(db, { provider: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-first', model: 'm' });
    const live = liveSettings(db);
    expect(await waitForEmission(live, () => true)).toMatchObject({ apiKey: 'sk-first' });
    const next = waitForEmission(live, (s) => s?.apiKey === 'sk-second');
    await saveSettings(db, { provider: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-second', model: 'm' });
    expect(await next).toMatchObject({ provider: 'openai', apiKey: 'sk-second' });
    const switched = waitForEmission(live, (s) => s?.provider === 'openrouter');
    await saveSettings(db, { provider: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', apiKey: '', model: 'm' });
    expect(await switched).toMatchObject({ apiKey: '' });
  });

  it('is undefined before the first save, and follows saves', async () => {
    const live = liveSettings(db);
    expect(await waitForEmission(live, () => true)).toBeUndefined();
    const next = waitForEmission(live, (s) => s?.model === 'llama3.2');
    await saveSettings(db, { provider: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: '', model: 'llama3.2' });
    expect(await next).toMatchObject({ provider: 'ollama', notifications: true });
  });
});
