import { liveQuery } from 'dexie';
import { McpServerRecord } from './records/mcp-server-record.ts';
import { AuditEvent } from '../engine/records/audit-event.ts';
import type { PausepointDb } from './db.ts';

/**
 * The MCP servers table. Its rows hold secrets (bearer tokens, custom
 * headers): no backup or export reads this table (see src/backup's list of
 * tables and src/audit), and nothing here is logged. Rows that do not parse
 * are left out rather than crash the reader.
 */
export async function listMcpServers(db: PausepointDb): Promise<McpServerRecord[]> {
  const rows: unknown[] = await db.mcpServers.toArray();
  return rows.flatMap((row) => {
    const parsed = McpServerRecord.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * src/mcp's McpServerStore over Dexie. Storage does not import that port (src/mcp sits above it):
 * TypeScript checks the fit where src/mcp/create-hub.ts hands this class to the hub as its store.
 */
export class DexieMcpServerStore {
  constructor(private readonly db: PausepointDb) {}

  list(): Promise<McpServerRecord[]> {
    return listMcpServers(this.db);
  }

  async put(server: McpServerRecord): Promise<void> {
    await this.db.mcpServers.put(McpServerRecord.parse(server));
  }

  update(id: string, change: (server: McpServerRecord) => McpServerRecord, audit?: (before: McpServerRecord, after: McpServerRecord) => AuditEvent[]): Promise<McpServerRecord | undefined> {
    return this.db.transaction('rw', [this.db.mcpServers, this.db.auditEvents], async () => {
      const parsed = McpServerRecord.safeParse(await this.db.mcpServers.get(id));
      if (!parsed.success) return undefined;
      const next = McpServerRecord.parse(change(parsed.data));
      await this.db.mcpServers.put(next);
      const events = audit?.(parsed.data, next) ?? [];
      if (events.length > 0) await this.db.auditEvents.bulkAdd(events.map((event) => AuditEvent.parse(event)));
      return next;
    });
  }

  async remove(id: string): Promise<void> {
    await this.db.mcpServers.delete(id);
  }

  watch(listener: (servers: McpServerRecord[]) => void): () => void {
    const subscription = liveQuery(() => listMcpServers(this.db)).subscribe({
      next: listener,
      error: (error: unknown) => console.error('Pausepoint: watching the MCP servers failed', error),
    });
    return () => subscription.unsubscribe();
  }
}
