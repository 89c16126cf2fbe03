import { liveQuery, type Observable } from 'dexie';
import type { McpServerRecord } from './records/mcp-server-record.ts';
import type { PausepointDb } from './db.ts';

/**
 * Every MCP server, oldest first, kept live across tabs: what Settings shows.
 * Read as stored, like the other views' live queries: only the worker writes
 * this table, through the zod schema (mcp-servers-repo.ts). Keeping the
 * schema out of here keeps it out of the page's JavaScript.
 */
export function liveMcpServers(db: PausepointDb): Observable<McpServerRecord[]> {
  return liveQuery(async () => (await db.mcpServers.toArray()).sort((a, b) => a.createdAt - b.createdAt));
}
