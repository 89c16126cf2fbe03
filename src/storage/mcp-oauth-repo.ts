import { McpOAuthRecord } from './records/mcp-oauth-record.ts';
import type { PausepointDb } from './db.ts';

/**
 * The `mcpOAuth` table: OAuth tokens and client registrations of MCP servers.
 * Secrets: no backup or export reads this table, and nothing here is logged.
 * A row that does not parse reads as absent (the user signs in again).
 * src/mcp's McpOAuthStore: storage does not import that port (src/mcp sits above it);
 * TypeScript checks the fit where src/mcp/create-hub.ts hands this class to McpOAuth.
 */
export class DexieOAuthStore {
  constructor(private readonly db: PausepointDb) {}

  async get(serverId: string): Promise<McpOAuthRecord | undefined> {
    const parsed = McpOAuthRecord.safeParse(await this.db.mcpOAuth.get(serverId));
    return parsed.success ? parsed.data : undefined;
  }

  update(serverId: string, change: (row: McpOAuthRecord | undefined) => McpOAuthRecord | null): Promise<McpOAuthRecord | null> {
    return this.db.transaction('rw', this.db.mcpOAuth, async () => {
      const parsed = McpOAuthRecord.safeParse(await this.db.mcpOAuth.get(serverId));
      const next = change(parsed.success ? parsed.data : undefined);
      if (next) await this.db.mcpOAuth.put(McpOAuthRecord.parse(next));
      else await this.db.mcpOAuth.delete(serverId);
      return next;
    });
  }

  async remove(serverId: string): Promise<void> {
    await this.db.mcpOAuth.delete(serverId);
  }
}
