import { z } from 'zod';
import { AuditEvent } from '../engine/records/audit-event.ts';
import { readAuditEvents } from '../storage/audit-events-repo.ts';
import type { PausepointDb } from '../storage/db.ts';
import { matchesEventFilters, type AuditFilters } from './audit-filters.ts';
import type { UnreadableRecord } from './pause-point-query.ts';

/** An audit event's place in the chain beside pause points: its time, then its id. */
export type EntryKey = readonly [at: number, id: string];

/**
 * The audit events an export merges between its pause points, read forward
 * in `(at, id)` order in pages, each only when the export reaches it: the
 * export asks for the events up to the last pause point of each page, and
 * for the rest at the end. Rows that do not parse are reported, never chained.
 */
export class AuditEventCursor {
  readonly #db: PausepointDb;
  readonly #pageSize: number;
  readonly #matches: (event: AuditEvent) => boolean;
  readonly #none: boolean;
  #after: EntryKey | undefined;

  constructor(db: PausepointDb, filters: AuditFilters, pageSize: number) {
    this.#db = db;
    this.#pageSize = pageSize;
    this.#matches = matchesEventFilters(filters);
    // Status and kind belong to pause points: such an export holds no events, and reads none.
    this.#none = filters.status !== undefined || filters.kind !== undefined;
  }

  /** The events after those already taken, up to `key` inclusive (all the rest without one). */
  async takeUpTo(key?: EntryKey): Promise<{ events: AuditEvent[]; unreadable: UnreadableRecord[] }> {
    const events: AuditEvent[] = [];
    const unreadable: UnreadableRecord[] = [];
    if (this.#none) return { events, unreadable };
    for (;;) {
      const rows = await readAuditEvents(this.#db, { after: this.#after, upTo: key, limit: this.#pageSize });
      for (const row of rows) {
        const { at, id } = row as { at: number; id: string };
        // Only rows with a valid [at+id] key are in the index, so both are there.
        this.#after = [at, id];
        const parsed = AuditEvent.safeParse(row);
        if (!parsed.success) unreadable.push({ id: String(id), reason: z.prettifyError(parsed.error).replace(/\s*\n\s*/g, '; ') });
        // Pushes are in the app's audit log, not in the export: its version 3 has no entry type for them.
        else if (parsed.data.kind !== 'push_sent' && this.#matches(parsed.data)) events.push(parsed.data);
      }
      if (rows.length < this.#pageSize) return { events, unreadable };
    }
  }
}

/** Whether `a` comes before `b` in the chain (time, then id). */
export function keyBefore(a: EntryKey, b: EntryKey): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}
