import { fileURLToPath } from 'node:url';
import { startLoopbackProcess, stopLoopbackProcess } from './loopback-process.ts';

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
  const child = await startLoopbackProcess(ENTRY, port, '/test/calls');
  const base = `http://localhost:${port}`;
  return {
    port,
    url: `${base}/mcp`,
    setTools: async (tools) => void (await fetch(`${base}/test/tools`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(tools) })),
    calls: async () => (await fetch(`${base}/test/calls`)).json(),
    close: () => stopLoopbackProcess(child),
  };
}
