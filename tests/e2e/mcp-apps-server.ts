import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { addServer } from './app.ts';
import { expect } from './fixtures.ts';
import type { AppServer } from './mcp-basic-app.ts';

/** The accessible name of the frame that shows `get-time`'s view, once the server is connected as Clock. */
export const CLOCK_VIEW = 'Interactive view of clock__get-time';

/** Settings › MCP servers: connects `app` as Clock, with its interactive views left on or turned off (which reconnects). */
export async function addClock(page: Page, app: AppServer, options: { views: boolean }): Promise<void> {
  const server = await addServer(page, app.url, 'Clock', /^Connected/);
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
