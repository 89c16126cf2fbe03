import { liveQuery, type Observable } from 'dexie';
import type { PausePoint } from '../engine/records/index.ts';
import type { PausepointDb } from './db.ts';

/**
 * Oldest first; the id breaks ties so every reader (and MemoryStorage, which
 * repeats this rule) sees the same order when several pause points share a tick.
 */
export function byCreation(a: PausePoint, b: PausePoint): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A conversation's pause points, oldest first. */
export async function pausePointsOf(db: PausepointDb, conversationId: string): Promise<PausePoint[]> {
  const found = await db.pausePoints.where('conversationId').equals(conversationId).toArray();
  return found.sort(byCreation);
}

/**
 * A conversation's pending pause points, oldest first. Through the `status`
 * index: pending ones are few across all conversations, while a long
 * conversation's decided ones pile up.
 */
export async function pendingPausePointsOf(db: PausepointDb, conversationId: string): Promise<PausePoint[]> {
  // Filtered after reading rather than with a Dexie filter, which would walk a cursor instead of one getAll.
  return pendingOf(await db.pausePoints.where('status').equals('pending').toArray(), conversationId);
}

/** A conversation's share of the pending pause points, oldest first. */
export function pendingOf(pending: readonly PausePoint[], conversationId: string): PausePoint[] {
  return pending.filter((p) => p.conversationId === conversationId).sort(byCreation);
}

/** Every pending pause point across conversations, oldest first: the approvals inbox. */
export async function pendingPausePoints(db: PausepointDb): Promise<PausePoint[]> {
  const found = await db.pausePoints.where('status').equals('pending').toArray();
  return found.sort(byCreation);
}

export function livePendingPausePoints(db: PausepointDb): Observable<PausePoint[]> {
  return liveQuery(() => pendingPausePoints(db));
}

/** The pending pause points, oldest first, and the title of each one's conversation. */
export interface PendingApprovals {
  pending: PausePoint[];
  /** Conversation id → title, for the conversations of `pending` that still exist. */
  conversationTitles: ReadonlyMap<string, string>;
}

/**
 * What the approvals inbox shows, in one read: the pending pause points and only
 * their own conversations (a `bulkGet` by key), never the whole conversations
 * table, so the inbox opens as fast with a thousand conversations as with one.
 */
export function livePendingApprovals(db: PausepointDb): Observable<PendingApprovals> {
  return liveQuery(() => pendingApprovals(db));
}

/** What `livePendingApprovals` emits, read once. */
export function pendingApprovals(db: PausepointDb): Promise<PendingApprovals> {
  return db.transaction('r', [db.pausePoints, db.conversations], async (): Promise<PendingApprovals> => {
    const pending = await pendingPausePoints(db);
    const ids = [...new Set(pending.map((p) => p.conversationId))];
    const conversationTitles = new Map<string, string>();
    for (const conversation of await db.conversations.bulkGet(ids)) {
      if (conversation) conversationTitles.set(conversation.id, conversation.title);
    }
    return { pending, conversationTitles };
  });
}

export function livePausePoints(db: PausepointDb, conversationId: string): Observable<PausePoint[]> {
  return liveQuery(() => pausePointsOf(db, conversationId));
}

/** How many decisions are waiting, for the app badge; counted on the index, no records read. */
export function countPending(db: PausepointDb): Promise<number> {
  return db.pausePoints.where('status').equals('pending').count();
}
