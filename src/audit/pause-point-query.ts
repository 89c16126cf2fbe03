import { z } from 'zod';
import { PausePoint } from '../engine/records/pause-point.ts';
import type { PausepointDb } from '../storage/db.ts';
import { byCreation } from '../storage/pause-points-repo.ts';
import { matchesFilters, type AuditFilters } from './audit-filters.ts';

export type ScanOrder = 'oldest_first' | 'newest_first';

export interface UnreadableRecord {
  id: string;
  reason: string;
}

export interface PausePointPage {
  /** Valid records that pass the filters, in scan order. */
  rows: PausePoint[];
  /** Stored records in this stretch that failed validation (they pass no filter). */
  unreadable: UnreadableRecord[];
  /** How many stored records this page read; sums to about `total`. */
  scanned: number;
}

export interface PausePointScan {
  /** How many records the scan will read (progress denominator); an estimate if rows change meanwhile. */
  total: number;
  pages: AsyncGenerator<PausePointPage, void, undefined>;
}

/** Below this many candidates, an equality index is read whole and sorted in memory. */
const IN_MEMORY_LIMIT = 5000;

/**
 * Pause points matching `filters` ordered by (createdAt, id), read in pages.
 *
 * The plan: when a status or conversation filter selects few records (by an
 * index count, which reads no records), those are read through that index and
 * sorted; otherwise the `createdAt` index is walked with keyset paging — each
 * page starts at the last key read, never at an offset, so page N costs the
 * same as page 1 — and the remaining filters are applied to what it reads.
 */
export async function scanPausePoints(
  db: PausepointDb,
  filters: AuditFilters,
  { order, pageSize }: { order: ScanOrder; pageSize: number },
): Promise<PausePointScan> {
  const lower = filters.from ?? -Infinity;
  const upper = filters.to ?? Infinity;
  if (lower > upper) return { total: 0, pages: pagesOf([]) };

  const candidates: { total: number; read: () => Promise<unknown[]> }[] = [];
  if (filters.status !== undefined) {
    const index = db.pausePoints.where('status').equals(filters.status);
    candidates.push({ total: await index.count(), read: () => index.toArray() });
  }
  if (filters.conversationId !== undefined) {
    const index = db.pausePoints.where('conversationId').equals(filters.conversationId);
    candidates.push({ total: await index.count(), read: () => index.toArray() });
  }
  const rangeTotal = await db.pausePoints.where('createdAt').between(lower, upper, true, true).count();
  const best = candidates.sort((a, b) => a.total - b.total)[0];

  if (best && best.total <= IN_MEMORY_LIMIT && best.total < rangeTotal) {
    return { total: best.total, pages: inMemoryPages(await best.read(), filters, order, pageSize) };
  }
  return { total: rangeTotal, pages: keysetPages(db, filters, order, pageSize, lower, upper) };
}

async function* pagesOf(pages: PausePointPage[]): AsyncGenerator<PausePointPage, void, undefined> {
  yield* pages;
}

async function* inMemoryPages(
  stored: unknown[],
  filters: AuditFilters,
  order: ScanOrder,
  pageSize: number,
): AsyncGenerator<PausePointPage, void, undefined> {
  const { rows, unreadable } = validate(stored, matchesFilters(filters));
  rows.sort(byCreation);
  if (order === 'newest_first') rows.reverse();
  const pageCount = Math.max(1, Math.ceil(rows.length / pageSize));
  for (let page = 0; page < pageCount; page++) {
    const slice = rows.slice(page * pageSize, (page + 1) * pageSize);
    // Unreadable and non-matching records were all read up front; count them with the first page.
    const scanned = page === 0 ? stored.length - rows.length + slice.length : slice.length;
    yield { rows: slice, unreadable: page === 0 ? unreadable : [], scanned };
  }
}

async function* keysetPages(
  db: PausepointDb,
  filters: AuditFilters,
  order: ScanOrder,
  pageSize: number,
  lower: number,
  upper: number,
): AsyncGenerator<PausePointPage, void, undefined> {
  const matches = matchesFilters(filters);
  const newestFirst = order === 'newest_first';
  let last: { createdAt: number; id: string } | undefined;
  /** How many records already read share `last.createdAt`: the next query starts at that key again and must skip them. */
  let ties = 0;
  for (;;) {
    const limit = pageSize + ties;
    const range = newestFirst
      ? db.pausePoints.where('createdAt').between(lower, last?.createdAt ?? upper, true, true).reverse()
      : db.pausePoints.where('createdAt').between(last?.createdAt ?? lower, upper, true, true);
    const read: unknown[] = await range.limit(limit).toArray();
    // Records sharing a createdAt come in primary key order (ascending, or descending when reversed).
    const fresh = last ? read.filter((record) => isAfter(record, last!, newestFirst)) : read;
    if (fresh.length === 0) return;

    const tail = keyOf(fresh[fresh.length - 1]);
    if (tail) {
      const trailing = countTrailing(fresh, tail.createdAt);
      ties = trailing === fresh.length && last?.createdAt === tail.createdAt ? ties + trailing : trailing;
      last = tail;
    }
    const { rows, unreadable } = validate(fresh, matches);
    yield { rows, unreadable, scanned: fresh.length };
    if (read.length < limit || !tail) return;
  }
}

function keyOf(record: unknown): { createdAt: number; id: string } | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const { createdAt, id } = record as { createdAt?: unknown; id?: unknown };
  return typeof createdAt === 'number' && typeof id === 'string' ? { createdAt, id } : undefined;
}

function isAfter(record: unknown, last: { createdAt: number; id: string }, newestFirst: boolean): boolean {
  const key = keyOf(record);
  if (!key || key.createdAt !== last.createdAt) return true;
  return newestFirst ? key.id < last.id : key.id > last.id;
}

function countTrailing(records: unknown[], createdAt: number): number {
  let count = 0;
  for (let index = records.length - 1; index >= 0 && keyOf(records[index])?.createdAt === createdAt; index--) count++;
  return count;
}

function validate(stored: unknown[], matches: (pp: PausePoint) => boolean): { rows: PausePoint[]; unreadable: UnreadableRecord[] } {
  const rows: PausePoint[] = [];
  const unreadable: UnreadableRecord[] = [];
  for (const record of stored) {
    const parsed = PausePoint.safeParse(record);
    if (parsed.success) {
      if (matches(parsed.data)) rows.push(parsed.data);
    } else {
      const id = (record as { id?: unknown } | null)?.id;
      unreadable.push({ id: typeof id === 'string' ? id : '(no id)', reason: z.prettifyError(parsed.error).replace(/\s*\n\s*/g, '; ') });
    }
  }
  return { rows, unreadable };
}
