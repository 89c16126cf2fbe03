import { matchesEventFilters, type AuditFilters } from '../../audit/audit-filters.ts';
import { AuditEvent } from '../../engine/records/audit-event.ts';
import type { PausepointDb } from '../../storage/db.ts';

/** How many audit events the view lists at most (the export has them all). */
export const EVENTS_SHOWN = 500;

/**
 * The newest audit events (rule changes, dry runs, changed tools) that match
 * the export's filters, newest first, over the `[at+id]` index. A row that
 * does not parse is counted, not shown.
 */
export async function readRecentEvents(db: PausepointDb, filters: AuditFilters, limit = EVENTS_SHOWN): Promise<{ events: AuditEvent[]; unreadable: number }> {
  const matches = matchesEventFilters(filters);
  const events: AuditEvent[] = [];
  let unreadable = 0;
  await db.auditEvents
    .where('[at+id]')
    .between([-Infinity, ''], [Infinity, ''])
    .reverse()
    .until(() => events.length >= limit)
    .each((row: unknown) => {
      const parsed = AuditEvent.safeParse(row);
      if (!parsed.success) unreadable++;
      else if (matches(parsed.data)) events.push(parsed.data);
    });
  return { events, unreadable };
}
