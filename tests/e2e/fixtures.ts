import { test as base, expect } from '@playwright/test';
import { startFakeLlm, type FakeLlm } from '../fake-llm/index.ts';
import { startEverything, type EverythingServer } from './mcp-everything.ts';
import { startOAuthServer, type OAuthServer } from './mcp-oauth.ts';
import { startBasicAppServer, type AppServer } from './mcp-basic-app.ts';
import { startPouchdbServer, type PouchdbServer } from '../couch/pouchdb-server.ts';
import { startFakeNtfy, type FakeNtfy } from '../fake-ntfy/index.ts';

/** A CouchDB-protocol sync server (pouchdb-server on loopback) with a user; each test makes its own databases. */
export interface SyncServer {
  url: string;
  user: { username: string; password: string };
  /** A fresh database this user may use (its `_security` names them). */
  database(): Promise<string>;
  /** Everything the server stores of a database, as the server holds it (`_all_docs?include_docs=true`). */
  allDocs(database: string): Promise<string>;
}

/**
 * A port for this test's MCP servers: ten per worker, one per test at a time,
 * in a hundred of 20000–31999 (below Linux's ephemeral ports) that are this
 * checkout's, by its PAUSEPOINT_E2E_PORT. Two checkouts running their MCP
 * specs side by side must not meet: a server's start-up probe would take the
 * other run's server, already listening on a shared port, for its own.
 */
export function mcpPort(workerIndex: number, slot: number): number {
  const checkout = Number(process.env.PAUSEPOINT_E2E_PORT ?? 4173) % 120;
  return 20_000 + checkout * 100 + (workerIndex % 10) * 10 + slot;
}

/**
 * Every test gets its own scripted model server on a random loopback port.
 * `everything` starts the real MCP server-everything (Streamable HTTP) for the
 * tests that ask for it, `everythingSse` its legacy SSE mode, and
 * `oauthServer` an MCP server behind the SDK's own OAuth authorization server.
 */
const SYNC_USER = { username: 'ada', password: 'sync-test-password' };

export const test = base.extend<
  { llm: FakeLlm; everything: EverythingServer; everythingSse: EverythingServer; oauthServer: OAuthServer; appServer: AppServer; couch: SyncServer; ntfy: FakeNtfy },
  { pouchdb: PouchdbServer }
>({
  // One server per Playwright worker (it starts in about a second); each test gets databases of its own.
  pouchdb: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
    async ({}, use, workerInfo) => {
      const server = await startPouchdbServer({ port: mcpPort(workerInfo.workerIndex, 5) });
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  couch: async ({ pouchdb }, use) => {
    let count = 0;
    // Test ids share their file's prefix: a random one keeps each test's databases its own.
    const prefix = `t${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    await use({
      url: pouchdb.url,
      user: SYNC_USER,
      database: async () => {
        const name = `${prefix}-${++count}`;
        await pouchdb.createDatabase(name, SYNC_USER);
        return name;
      },
      allDocs: async (database) => {
        const auth = `Basic ${Buffer.from(`${SYNC_USER.username}:${SYNC_USER.password}`).toString('base64')}`;
        return (await fetch(`${pouchdb.url}/${database}/_all_docs?include_docs=true&conflicts=true`, { headers: { authorization: auth } })).text();
      },
    });
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  everything: async ({}, use, testInfo) => {
    const server = await startEverything(mcpPort(testInfo.workerIndex, 0), 'streamableHttp');
    await use(server);
    await server.close();
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  everythingSse: async ({}, use, testInfo) => {
    const server = await startEverything(mcpPort(testInfo.workerIndex, 1), 'sse');
    await use(server);
    await server.close();
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  oauthServer: async ({}, use, testInfo) => {
    const server = await startOAuthServer(mcpPort(testInfo.workerIndex, 2));
    await use(server);
    await server.close();
  },
  // ext-apps' example MCP App server (mcp-basic-app.ts), its own process on this test's port.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  appServer: async ({}, use, testInfo) => {
    const server = await startBasicAppServer(mcpPort(testInfo.workerIndex, 6));
    await use(server);
    await server.close();
  },
  // A loopback stand-in for the person's ntfy server (tests/fake-ntfy), on a free port.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  ntfy: async ({}, use) => {
    const ntfy = await startFakeNtfy();
    await use(ntfy);
    await ntfy.close();
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  llm: async ({}, use) => {
    const llm = await startFakeLlm({ requireKey: 'sk-e2e-secret' });
    await use(llm);
    await llm.close();
  },
});

export { expect };
export const API_KEY = 'sk-e2e-secret';
