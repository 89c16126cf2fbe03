import type { McpOAuthRecord } from '../../storage/records/mcp-oauth-record.ts';

/** Where OAuth state is kept (Dexie in the app, a map in tests). */
export interface McpOAuthStore {
  get(serverId: string): Promise<McpOAuthRecord | undefined>;
  /** Atomically reads, transforms and writes one row; `null` from `change` deletes it. */
  update(serverId: string, change: (row: McpOAuthRecord | undefined) => McpOAuthRecord | null): Promise<McpOAuthRecord | null>;
  remove(serverId: string): Promise<void>;
}
