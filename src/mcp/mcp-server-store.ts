import type { AuditEvent } from '../engine/records/audit-event.ts';
import type { McpServerRecord } from '../storage/records/mcp-server-record.ts';

/** The audit events an update of a server means, computed from the record as stored before it and as written. */
export type ServerAuditEvents = (before: McpServerRecord, after: McpServerRecord) => AuditEvent[];

/** Where the user's MCP servers are stored, shared by every tab (Dexie in the app, a map in tests). */
export interface McpServerStore {
  list(): Promise<McpServerRecord[]>;
  put(server: McpServerRecord): Promise<void>;
  /**
   * Atomically reads, transforms and writes one server; undefined when it is
   * gone. `audit`'s events are stored in the same transaction: a change every
   * tab may notice (a server's changed tool) is recorded once, by the tab whose
   * update saw it first.
   */
  update(id: string, change: (server: McpServerRecord) => McpServerRecord, audit?: ServerAuditEvents): Promise<McpServerRecord | undefined>;
  remove(id: string): Promise<void>;
  /** Calls `listener` with every server whenever any tab changes them; returns the unsubscribe. */
  watch(listener: (servers: McpServerRecord[]) => void): () => void;
}
