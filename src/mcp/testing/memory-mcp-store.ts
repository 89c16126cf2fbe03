import type { McpServerRecord } from '../../storage/records/mcp-server-record.ts';
import type { AuditEvent } from '../../engine/records/audit-event.ts';
import type { McpServerStore, ServerAuditEvents } from '../mcp-server-store.ts';

/** The MCP server store in memory, with watchers told after each write, as Dexie's live queries would be. */
export class MemoryMcpStore implements McpServerStore {
  readonly rows = new Map<string, McpServerRecord>();
  /** The audit events updates stored, in order. */
  readonly events: AuditEvent[] = [];
  readonly #listeners = new Set<(servers: McpServerRecord[]) => void>();

  async list() {
    return [...this.rows.values()].map((row) => structuredClone(row));
  }

  async put(server: McpServerRecord) {
    this.rows.set(server.id, structuredClone(server));
    this.#tell();
  }

  async update(id: string, change: (server: McpServerRecord) => McpServerRecord, audit?: ServerAuditEvents) {
    const row = this.rows.get(id);
    if (!row) return undefined;
    const next = structuredClone(change(structuredClone(row)));
    this.rows.set(id, next);
    this.events.push(...(audit?.(structuredClone(row), structuredClone(next)) ?? []));
    this.#tell();
    return structuredClone(next);
  }

  async remove(id: string) {
    this.rows.delete(id);
    this.#tell();
  }

  watch(listener: (servers: McpServerRecord[]) => void) {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #tell() {
    const servers = [...this.rows.values()].map((row) => structuredClone(row));
    queueMicrotask(() => this.#listeners.forEach((listener) => listener(servers)));
  }
}
