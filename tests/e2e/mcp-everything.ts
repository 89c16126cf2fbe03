import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `@modelcontextprotocol/server-everything` (a dev dependency: `npm ci` brings
 * it), run as its own process on a loopback port from the range the tests may
 * use (fixtures.ts `mcpPort`), so a test can kill it mid-call and start it again.
 */
export interface EverythingServer {
  port: number;
  /** The MCP endpoint: `/mcp` (Streamable HTTP) or `/sse` (the legacy transport). */
  url: string;
  mode: 'streamableHttp' | 'sse';
  /** SIGKILL: the process dies at once, mid-response if one is open. */
  kill(): Promise<void>;
  /** Starts it again on the same port (a new process: every session it had is forgotten). */
  restart(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

async function waitUntilListening(port: number, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server-everything exited with ${child.exitCode} before listening on ${port}`);
    const ok = await fetch(`http://127.0.0.1:${port}/`, { method: 'OPTIONS' }).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server-everything did not listen on ${port} within ${timeoutMs} ms`);
}

export async function startEverything(port: number, mode: EverythingServer['mode'] = 'streamableHttp'): Promise<EverythingServer & { close(): Promise<void> }> {
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(process.execPath, [ENTRY, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    await waitUntilListening(port, child);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { port, mode, url: `http://localhost:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`, kill: stop, restart: start, close: stop };
}
