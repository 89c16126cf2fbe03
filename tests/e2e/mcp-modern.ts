import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The loopback MCP server on the 2026-07-28 revision (mcp-modern-server.mjs, the SDK's v2 server), run as its own process like server-everything. */
export interface ModernServer {
  port: number;
  url: string;
  /** The calls it ran, the revision each came on (`legacy` for a 2025 client), and the task a slow_job ran as. */
  calls(): Promise<{ tool: string; args: Record<string, unknown>; revision: string; task?: string | null }[]>;
  close(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./mcp-modern-server.mjs', import.meta.url));

export async function startModernServer(port: number): Promise<ModernServer> {
  const child: ChildProcess = spawn(process.execPath, [ENTRY], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mcp-modern-server exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(`${base}/test/calls`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`mcp-modern-server did not listen on ${port}: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    url: `${base}/mcp`,
    calls: async () => (await fetch(`${base}/test/calls`)).json(),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
