import { test as base, expect } from '@playwright/test';
import { startFakeLlm, type FakeLlm } from '../fake-llm/index.ts';
import { startEverything, type EverythingServer } from './mcp-everything.ts';
import { startOAuthServer, type OAuthServer } from './mcp-oauth.ts';

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
export const test = base.extend<{ llm: FakeLlm; everything: EverythingServer; everythingSse: EverythingServer; oauthServer: OAuthServer }>({
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
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  llm: async ({}, use) => {
    const llm = await startFakeLlm({ requireKey: 'sk-e2e-secret' });
    await use(llm);
    await llm.close();
  },
});

export { expect };
export const API_KEY = 'sk-e2e-secret';
