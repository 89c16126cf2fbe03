import { fileURLToPath } from 'node:url';
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
