import { fileURLToPath } from 'node:url';
import { startLoopbackProcess, stopLoopbackProcess } from './loopback-process.ts';

/** The loopback MCP server on the 2026-07-28 revision (mcp-modern-server.mjs, the SDK's v2 server), run as its own process like server-everything. */
export interface ModernServer {
  port: number;
  url: string;
  /** The calls it ran, the revision each came on (`legacy` for a 2025 client), and the task a slow_job or ship_job ran as. */
  calls(): Promise<{ tool: string; args: Record<string, unknown>; revision: string; task?: string | null }[]>;
  /** How a task stands (`tasks/get`'s answer), with the `inputResponses` of each `tasks/update` it received; null for a task it does not know. */
  task(taskId: string): Promise<(Record<string, unknown> & { status: string; responses: Record<string, unknown>[] }) | null>;
  /** Closes its HTTP listener and every open connection, and listens again on the same port `ms` later; its tasks live on. */
  dropFor(ms: number): Promise<void>;
  /** Kills the process and starts a new one on the same port: a server that restarted and forgot its tasks. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./mcp-modern-server.mjs', import.meta.url));

export async function startModernServer(port: number): Promise<ModernServer> {
  let child = await startLoopbackProcess(ENTRY, port, '/test/calls');
  const base = `http://localhost:${port}`;
  return {
    port,
    url: `${base}/mcp`,
    calls: async () => (await fetch(`${base}/test/calls`)).json(),
    task: async (taskId) => {
      const response = await fetch(`${base}/test/tasks/${encodeURIComponent(taskId)}`);
      return response.ok ? response.json() : null;
    },
    dropFor: async (ms) => {
      await fetch(`${base}/test/drop?ms=${ms}`, { method: 'POST' });
    },
    restart: async () => {
      await stopLoopbackProcess(child);
      child = await startLoopbackProcess(ENTRY, port, '/test/calls');
    },
    close: () => stopLoopbackProcess(child),
  };
}
