import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { PausepointDb } from './db.ts';
import { useTestDb } from './testing/open-test-db.ts';
import { ENDPOINT_HEADERS_KEY, headerNameProblem, headerValueProblem, headersFor, MAX_CUSTOM_HEADERS, storedEndpointHeaders, withEndpointHeaders } from './custom-headers.ts';
import { liveSettings } from './live-settings.ts';
import { readEndpointHeaders, readSettings, saveSettings, Settings, settingsAlongside } from './settings-repo.ts';
import { StorageError } from './storage-error.ts';
import { waitForEmission } from './wait-for-emission.ts';

const GATEWAY = { provider: 'custom', baseUrl: 'https://gateway.example/v1', apiKey: 'sk-gw', model: 'm' } as const;
const TOKEN = { name: 'X-Gateway-Token', value: 'gw-secret-value' };

describe('header validation', () => {
  it('accepts HTTP tokens and refuses anything else', () => {
    for (const name of ['X-Gateway-Token', 'x-api-version', "a!#$%&'*+-.^_`|~9"]) expect(headerNameProblem(name)).toBeUndefined();
    for (const name of ['', 'X Token', 'X-Token:', 'X-Tökén', 'a\r\nb', '(x)', 'x/y']) expect(headerNameProblem(name)).toBeDefined();
  });

  it('refuses the headers Pausepoint sets and those a browser forbids, in any case', () => {
    expect(headerNameProblem('Authorization')).toMatch(/API key/);
    for (const name of ['content-type', 'Content-Length', 'HOST', 'Cookie', 'Origin', 'Referer', 'Connection', 'Transfer-Encoding', 'Sec-Fetch-Mode', 'Proxy-Authorization', 'Set-Cookie']) {
      expect(headerNameProblem(name), name).toBeDefined();
    }
  });

  it('refuses values with line breaks, other control characters, or beyond Latin-1', () => {
    expect(headerValueProblem('Bearer abc.def-123 =/+')).toBeUndefined();
    expect(headerValueProblem('')).toBeUndefined();
    for (const value of ['a\r\nX-Evil: 1', 'a\nb', 'a\rb', 'a\u0000b', 'a\tb', 'a\u007fb']) expect(headerValueProblem(value)).toMatch(/control/);
    expect(headerValueProblem('ключ')).toMatch(/Latin/);
  });

  it('the settings schema reports each bad header at its own field, a repeated name, and too many', () => {
    const parsed = Settings.safeParse({ ...GATEWAY, headers: [TOKEN, { name: 'Bad Name', value: 'v' }, { name: 'x-ok', value: 'a\nb' }, { name: 'x-gateway-token', value: 'again' }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([
      ['headers', 1, 'name'],
      ['headers', 2, 'value'],
      ['headers', 3, 'name'],
    ]);
    const many = Array.from({ length: MAX_CUSTOM_HEADERS + 1 }, (_, i) => ({ name: `x-h${i}`, value: 'v' }));
    expect(Settings.safeParse({ ...GATEWAY, headers: many }).error?.issues[0]?.path).toEqual(['headers']);
    expect(Settings.safeParse({ ...GATEWAY, headers: many.slice(1) }).success).toBe(true);
  });
});

describe('the headers row', () => {
  it('keeps each origin its own headers and gives a base URL only its origin’s', () => {
    let row = withEndpointHeaders(undefined, 'https://gateway.example', [TOKEN]);
    row = withEndpointHeaders(row, 'https://other.example', [{ name: 'x-other', value: 'o' }]);
    expect(headersFor(row, 'https://gateway.example/v1/')).toEqual([TOKEN]);
    expect(headersFor(row, 'https://other.example/api')).toEqual([{ name: 'x-other', value: 'o' }]);
    // Same host, another scheme or port: another origin.
    expect(headersFor(row, 'http://gateway.example/v1')).toEqual([]);
    expect(headersFor(row, 'https://gateway.example:8443/v1')).toEqual([]);
    expect(headersFor(row, 'not a url')).toEqual([]);
    expect(storedEndpointHeaders(withEndpointHeaders(row, 'https://gateway.example', [])).has('https://gateway.example')).toBe(false);
  });

  it('reads a crafted or corrupt row as no headers, and drops entries that could not be sent', () => {
    expect(storedEndpointHeaders({ v: 2, headers: {} }).size).toBe(0);
    expect(storedEndpointHeaders('nope').size).toBe(0);
    const read = storedEndpointHeaders({
      v: 1,
      headers: {
        'https://gateway.example': [TOKEN, { name: 'authorization', value: 'x' }, { name: 'x-a', value: 'a\r\nb' }, { name: 5, value: 'v' }],
        'https://gateway.example/not-an-origin': [TOKEN],
      },
    });
    expect([...read]).toEqual([['https://gateway.example', [TOKEN]]]);
  });
});

describe('saving and reading headers per origin', () => {
  let db: PausepointDb;
  useTestDb((fresh) => (db = fresh));

  it('saves the headers under the base URL’s origin, beside the keys and not in the settings row', async () => {
    const saved = await saveSettings(db, { ...GATEWAY, headers: [TOKEN] });
    expect(saved.headers).toEqual([TOKEN]);
    expect(JSON.stringify((await db.settings.get('settings'))?.value)).not.toContain(TOKEN.value);
    expect((await db.settings.get(ENDPOINT_HEADERS_KEY))?.value).toEqual({ v: 1, headers: { 'https://gateway.example': [TOKEN] } });
    expect((await readSettings(db))?.headers).toEqual([TOKEN]);
    // The page's live settings carry none: only the worker sends requests.
    expect(await waitForEmission(liveSettings(db), (s) => s !== undefined)).not.toHaveProperty('headers');
  });

  it('another origin reads none, and switching back finds them again', async () => {
    await saveSettings(db, { ...GATEWAY, headers: [TOKEN] });
    const other = await saveSettings(db, { ...GATEWAY, baseUrl: 'https://api.openai.com/v1', headers: [] });
    expect(other).not.toHaveProperty('headers');
    expect(await readSettings(db)).not.toHaveProperty('headers');
    await saveSettings(db, GATEWAY);
    expect((await readSettings(db))?.headers).toEqual([TOKEN]);
    expect(await readEndpointHeaders(db)).toEqual(new Map([['https://gateway.example', [TOKEN]]]));
  });

  it('the loop step’s read carries the headers of its origin', async () => {
    await saveSettings(db, { ...GATEWAY, headers: [TOKEN] });
    const read = await new Promise<ReturnType<ReturnType<typeof settingsAlongside.issue>>>((resolve, reject) => {
      const transaction = db.backendDB().transaction(settingsAlongside.stores, 'readonly');
      const result = settingsAlongside.issue(transaction);
      transaction.oncomplete = () => resolve(result());
      transaction.onerror = () => reject(transaction.error);
    });
    expect(read.settings?.headers).toEqual([TOKEN]);
  });

  it('an empty list removes the origin’s headers; a bad header saves nothing', async () => {
    await saveSettings(db, { ...GATEWAY, headers: [TOKEN] });
    await expect(saveSettings(db, { ...GATEWAY, headers: [{ name: 'Cookie', value: 'x' }] })).rejects.toBeInstanceOf(StorageError);
    expect((await readSettings(db))?.headers).toEqual([TOKEN]);
    await saveSettings(db, { ...GATEWAY, headers: [] });
    expect(await readSettings(db)).not.toHaveProperty('headers');
  });
});
