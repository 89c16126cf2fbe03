import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackup } from '../backup/create-backup.ts';
import { PausepointDb } from '../storage/db.ts';
import { readPushSettings, savePushSettings, turnOffPush } from './push-settings-store.ts';
import { pushTokenFor } from './push-token.ts';

let db: PausepointDb;
beforeEach(() => {
  db = new PausepointDb(`push-token-${crypto.randomUUID()}`);
});
afterEach(async () => db.delete());

const config = { v: 1 as const, serverUrl: 'https://ntfy.example', topic: 'abcdef0123456789abcdef0123456789', sayRisk: false, graceSeconds: 20, savedAt: 1 };

describe('the push access token', () => {
  it('is read only for the server origin it was saved for', async () => {
    await savePushSettings(db, config, 'tk_secret_token');
    expect(await readPushSettings(db)).toEqual({ config, token: 'tk_secret_token' });
    expect(pushTokenFor((await db.settings.get('pushToken'))?.value, 'https://elsewhere.example')).toBe('');
  });

  it('never goes into a backup', async () => {
    await savePushSettings(db, config, 'tk_secret_token');
    await db.settings.put({ key: 'settings', value: { v: 1, provider: 'demo', baseUrl: 'https://demo.invalid/v1', model: 'demo', expiryMinutes: null, notifications: true, badge: true } });
    const text = await (await createBackup(db)).blob.text();
    expect(text).toContain('"settings"');
    expect(text).not.toContain('tk_secret_token');
  });

  it('goes with Turn off', async () => {
    await savePushSettings(db, config, 'tk_secret_token');
    await turnOffPush(db);
    expect(await readPushSettings(db)).toBeUndefined();
    expect(await db.settings.get('pushToken')).toBeUndefined();
  });
});
