import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { admitSynced } from '../inert/index.ts';
import type { PushConfig } from '../push/push-config.ts';
import { PUSH_CONFIG_KEY, PUSH_OFF_KEY } from '../push/push-config.ts';
import { readPushSettings, savePushSettings, turnOffPush } from '../push/push-settings-store.ts';
import { pairingBlobFrom } from './crypto/pairing-link.ts';
import { eventually } from './testing/synced-device.ts';
import { syncTestbed, TEST_PASSPHRASE, TEST_USER } from './testing/sync-testbed.ts';

/**
 * Issue 33: push settings are set up on one device for all of the person's
 * devices (the access token stays on the device it was typed on), and a
 * turn-off reaches the others instead of being undone by them.
 */
const bed = syncTestbed('push-settings');

async function laptopAndPhone() {
  const db = await bed.database();
  const laptop = await bed.device('Laptop');
  expect(await laptop.sync.turnOn({ deviceName: 'Laptop', serverUrl: bed.server.url, database: db, ...TEST_USER, passphrase: TEST_PASSPHRASE })).toEqual({ ok: true });
  const phone = await bed.device('Phone');
  const invite = await laptop.sync.addDevice();
  expect(await phone.sync.join({ blob: pairingBlobFrom(new URL(invite.link).hash)!, code: invite.code, deviceName: 'Phone' })).toEqual({ ok: true });
  return { laptop, phone };
}

const config = (savedAt: number, topic = 'a1b2c3d4e5f60718293a4b5c6d7e8f90'): PushConfig => ({ v: 1, serverUrl: 'https://ntfy.example', topic, sayRisk: false, graceSeconds: 20, savedAt });

describe('push settings across devices', { timeout: 60_000 }, () => {
  it('set up on the laptop, the phone pushes to the same topic; the token stays on the laptop', async () => {
    const { laptop, phone } = await laptopAndPhone();
    await savePushSettings(laptop.db, config(Date.now()), 'tk_laptop_only');
    const onPhone = await eventually('the phone has the settings', () => readPushSettings(phone.db));
    expect(onPhone.config).toMatchObject({ serverUrl: 'https://ntfy.example', topic: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' });
    expect(onPhone.token).toBe('');
  });

  it('turned off on the phone, push is off on the laptop too, and stays off', async () => {
    const { laptop, phone } = await laptopAndPhone();
    await savePushSettings(laptop.db, config(Date.now()), '');
    await eventually('the phone has the settings', () => readPushSettings(phone.db));
    await turnOffPush(phone.db, Date.now() + 1);
    await eventually('the laptop turns push off', async () => (await laptop.db.settings.get(PUSH_CONFIG_KEY)) === undefined);
    expect((await laptop.db.settings.get(PUSH_OFF_KEY))?.value).toMatchObject({ v: 1 });
    // The laptop shares what it now holds (the turn-off), so nothing brings the old settings back to the phone.
    await laptop.sync.retryNow();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await readPushSettings(phone.db)).toBeUndefined();
  });

  it('of two saves, the later one stands on both devices', async () => {
    const { laptop, phone } = await laptopAndPhone();
    const now = Date.now();
    await savePushSettings(phone.db, config(now - 60_000, 'older0000000000000000000000000000'), '');
    await savePushSettings(laptop.db, config(now, 'newer0000000000000000000000000000'), '');
    await eventually('the phone takes the later save', async () => (await readPushSettings(phone.db))?.config.topic === 'newer0000000000000000000000000000');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await readPushSettings(laptop.db))?.config.topic).toBe('newer0000000000000000000000000000');
  });
});

describe('push settings through the inert path', () => {
  const shared = { id: 'phone', savedAt: 5_000, config: null };

  it('a device shares its own settings only', () => {
    expect(admitSynced({ kind: 'pushSettings', id: 'phone', record: shared }, { deviceId: 'laptop', at: 10_000 })).toEqual({ ok: false, problem: 'a device shares its own settings only' });
  });

  it('a save dated after its arrival is dated at its arrival: it cannot stand over the person’s later saves elsewhere', () => {
    const admitted = admitSynced({ kind: 'pushSettings', id: 'phone', record: { ...shared, savedAt: 9_999_999 } }, { deviceId: 'phone', at: 10_000 });
    expect(admitted).toEqual({ ok: true, synced: { kind: 'pushSettings', id: 'phone', record: { ...shared, savedAt: 10_000 } } });
  });
});
