import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

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
  const child: ChildProcess = spawn(process.execPath, [ENTRY], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server-basic-vanillajs exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'OPTIONS' }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server-basic-vanillajs did not listen on ${port}: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://localhost:${port}/mcp`,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
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
