import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { openMcpSettings } from './app.ts';
import { expect } from './fixtures.ts';
import { startLoopbackProcess, stopLoopbackProcess } from './loopback-process.ts';

/**
 * `@modelcontextprotocol/server-basic-vanillajs` (a dev dependency: `npm ci` brings it), ext-apps' own example MCP
 * App server, run as its own process on a test's port: its tool `get-time` declares the view `ui://get-time/mcp-app.html`
 * (served as text/html;profile=mcp-app, no CSP declared), whose `Get Server Time` button calls the tool through the host.
 * It serves the SDK's Streamable HTTP transport at /mcp with permissive CORS (it binds every interface: the package's
 * own main does, and the tests reach it at localhost).
 */
export interface AppServer {
  url: string;
  close(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js', import.meta.url));

export async function startBasicAppServer(port: number): Promise<AppServer> {
  // Its /mcp answers a CORS preflight once it listens (a plain GET is refused without a session).
  const child = await startLoopbackProcess(ENTRY, port, '/mcp', { method: 'OPTIONS', name: 'server-basic-vanillajs' });
  return { url: `http://localhost:${port}/mcp`, close: () => stopLoopbackProcess(child) };
}

/** The accessible name of the frame that shows `get-time`'s view, once the server is connected as Clock. */
export const CLOCK_VIEW = 'Interactive view of clock__get-time';

/** Settings › MCP servers: connects `app` as Clock, with its interactive views left on or turned off (which reconnects). */
export async function addClock(page: Page, app: AppServer, options: { views: boolean }): Promise<void> {
  await openMcpSettings(page);
  const section = page.getByRole('region', { name: 'MCP servers' });
  await section.getByLabel('Server URL').fill(app.url);
  await section.getByLabel('Name (optional)').fill('Clock');
  await section.getByRole('button', { name: 'Connect', exact: true }).click();
  const server = section.getByRole('article', { name: 'Clock' });
  await expect(server.getByRole('status', { name: 'Status of Clock' })).toHaveText(/^Connected/, { timeout: 20_000 });
  const views = server.getByRole('switch', { name: 'Show interactive views' });
  await expect(views).toBeChecked();
  if (!options.views) {
    await views.uncheck();
    await expect(views).not.toBeChecked();
    // Turning it off reconnects without the extension.
    await expect(server.getByRole('status', { name: 'Status of Clock' })).toHaveText(/^Connected/, { timeout: 20_000 });
  }
}

/** A loopback HTTP server that counts every request it receives: what a view must never reach. */
export interface Target {
  url: string;
  hits(): number;
  close(): Promise<void>;
}

export async function startTarget(): Promise<Target> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
    res.end('secret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/collect`, hits: () => hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
