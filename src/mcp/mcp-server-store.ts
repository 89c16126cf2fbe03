import type { McpServerRecord } from './mcp-server-record.ts';

/** Where the user's MCP servers are stored, shared by every tab (Dexie in the app, a map in tests). */
export interface McpServerStore {
  list(): Promise<McpServerRecord[]>;
  put(server: McpServerRecord): Promise<void>;
  /** Atomically reads, transforms and writes one server; undefined when it is gone. */
  update(id: string, change: (server: McpServerRecord) => McpServerRecord): Promise<McpServerRecord | undefined>;
  remove(id: string): Promise<void>;
  /** Calls `listener` with every server whenever any tab changes them; returns the unsubscribe. */
  watch(listener: (servers: McpServerRecord[]) => void): () => void;
}
