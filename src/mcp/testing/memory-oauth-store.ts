import { McpOAuthRecord } from '../../storage/records/mcp-oauth-record.ts';
import type { McpOAuthStore } from '../oauth/mcp-oauth-store.ts';

/** A map-backed store for tests. */
export class MemoryOAuthStore implements McpOAuthStore {
  readonly rows = new Map<string, McpOAuthRecord>();

  async get(serverId: string): Promise<McpOAuthRecord | undefined> {
    const row = this.rows.get(serverId);
    return row && structuredClone(row);
  }

  async update(serverId: string, change: (row: McpOAuthRecord | undefined) => McpOAuthRecord | null): Promise<McpOAuthRecord | null> {
    const next = change(await this.get(serverId));
    if (next) this.rows.set(serverId, McpOAuthRecord.parse(next));
    else this.rows.delete(serverId);
    return next;
  }

  async remove(serverId: string): Promise<void> {
    this.rows.delete(serverId);
  }
}
