import { afterAll, afterEach, beforeAll } from 'vitest';
import { startPouchdbServer, type PouchdbServer } from '../../../tests/couch/pouchdb-server.ts';
import { syncedDevice, type SyncedDevice } from './synced-device.ts';

/** The sync server's user in the tests: requests are authenticated as in production. */
export const TEST_USER = { username: 'ada', password: 'correct horse' };
export const TEST_PASSPHRASE = 'a long passphrase for the tests';
/** The test user's Basic authorization, for requests a test makes to the server itself (as an observer, or as the server misbehaving). */
export const TEST_AUTH = { authorization: `Basic ${btoa(`${TEST_USER.username}:${TEST_USER.password}`)}` };

export interface SyncTestbed {
  /** The file's pouchdb-server (in memory, on loopback), started before its first test. */
  readonly server: PouchdbServer;
  /** A fresh database of the test user's, named after the file's prefix. */
  database(): Promise<string>;
  /** One of the person's devices, closed after the test. */
  device(name: string, turns?: Parameters<typeof syncedDevice>[1]): Promise<SyncedDevice>;
}

/**
 * What every sync test file against a real server sets up: one pouchdb-server
 * for the file, a database per test, and devices closed after each test.
 * Call it at the top level of a test file (it registers the file's hooks).
 */
export function syncTestbed(prefix: string): SyncTestbed {
  let server: PouchdbServer | undefined;
  let count = 0;
  const open: SyncedDevice[] = [];
  beforeAll(async () => {
    server = await startPouchdbServer();
  }, 30_000);
  afterAll(() => server?.close());
  afterEach(async () => {
    for (const device of open.splice(0)) await device.close();
  });
  const started = () => {
    if (!server) throw new Error('The sync testbed’s server is started in beforeAll: use it inside a test.');
    return server;
  };
  return {
    get server() {
      return started();
    },
    async database() {
      const name = `pausepoint-${prefix}-${++count}`;
      await started().createDatabase(name, TEST_USER);
      return name;
    },
    async device(name, turns = []) {
      const made = await syncedDevice(name, turns);
      open.push(made);
      return made;
    },
  };
}
