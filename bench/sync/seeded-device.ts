import { performance } from 'node:perf_hooks';
import type { PouchdbServer } from '../../tests/couch/pouchdb-server.ts';
import { eventually, syncedDevice, type SyncedDevice } from '../../src/sync/testing/synced-device.ts';
import { seedHistory } from './seed-history.ts';

/** The device a new one joins: its history written and pushed, still syncing (it hands out the invitations). */
export interface SeededDevice {
  device: SyncedDevice;
  /** The history's records as JSON: the data a first sync carries. */
  dataBytes: number;
  pushSeconds: number;
}

/**
 * A device in this process (fake-indexeddb) with `conversations` × `messages`
 * of history, synced into `database`: the server then holds real sealed
 * documents, which Node devices and the app in Chromium open alike.
 */
export async function seededDevice(
  server: PouchdbServer,
  database: string,
  user: { username: string; password: string },
  passphrase: string,
  conversations: number,
  messages: number,
): Promise<SeededDevice> {
  await server.createDatabase(database, user);
  const device = await syncedDevice('Old laptop');
  const dataBytes = await seedHistory(device.db, conversations, messages);
  const on = await device.sync.turnOn({ deviceName: device.name, serverUrl: server.url, database, ...user, passphrase });
  if (!on.ok) throw new Error(on.refusal.message);
  const started = performance.now();
  await eventually('the old laptop has pushed its history', async () => (await device.db.syncDocs.count()) >= conversations * (messages + 1), 600_000);
  return { device, dataBytes, pushSeconds: (performance.now() - started) / 1000 };
}
