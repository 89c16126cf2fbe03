import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The loopback MCP server behind OAuth (mcp-oauth-server.mjs: the SDK's
 * authorization server router, bearer middleware and demo provider), run as
 * its own process like server-everything.
 */
export interface OAuthServer {
  port: number;
  /** The protected MCP endpoint. */
  url: string;
  /** Makes every access token it issued expired: the next request needs a refresh. */
  expireTokens(): Promise<void>;
  /** What happened: sign-ins, refreshes, revocations, calls. */
  log(): Promise<{ event: string; [key: string]: unknown }[]>;
  close(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./mcp-oauth-server.mjs', import.meta.url));

export async function startOAuthServer(port: number): Promise<OAuthServer> {
  const child: ChildProcess = spawn(process.execPath, [ENTRY], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mcp-oauth-server exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(`${base}/.well-known/oauth-authorization-server`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`mcp-oauth-server did not listen on ${port}: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    url: `${base}/mcp`,
    expireTokens: async () => void (await fetch(`${base}/test/expire`, { method: 'POST' })),
    log: async () => (await fetch(`${base}/test/log`)).json(),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
