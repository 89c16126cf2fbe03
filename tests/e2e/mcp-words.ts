import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A tool as mcp-words-server.mjs lists it. */
export interface WordsTool {
  name: string;
  description: string;
  annotations?: Record<string, boolean>;
}

/** The loopback MCP server whose tools a test sets (mcp-words-server.mjs), run as its own process like server-everything. */
export interface WordsServer {
  port: number;
  url: string;
  /** What its next tools/list will say. */
  setTools(tools: WordsTool[]): Promise<void>;
  /** The calls it ran, with the description the tool had then. */
  calls(): Promise<{ tool: string; word: string; description: string }[]>;
  close(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./mcp-words-server.mjs', import.meta.url));

export async function startWordsServer(port: number): Promise<WordsServer> {
  const child: ChildProcess = spawn(process.execPath, [ENTRY], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mcp-words-server exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(`${base}/test/calls`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`mcp-words-server did not listen on ${port}: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    url: `${base}/mcp`,
    setTools: async (tools) => void (await fetch(`${base}/test/tools`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(tools) })),
    calls: async () => (await fetch(`${base}/test/calls`)).json(),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
