import Dexie, { liveQuery, type Collection, type InsertType, type Observable } from 'dexie';
import type { Message } from '../engine/records/index.ts';
import type { PausepointDb } from './db.ts';

/**
 * A conversation's messages through the `[conversationId+seq]` index: already in
 * `seq` order, and only this conversation's keys are visited.
 */
export function conversationMessages(db: PausepointDb, conversationId: string): Collection<Message, string, InsertType<Message, 'id'>> {
  return db.messages.where('[conversationId+seq]').between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey]);
}

/** A conversation's messages ordered by `seq`, re-emitted whenever any tab or worker writes them. */
export function liveMessages(db: PausepointDb, conversationId: string): Observable<Message[]> {
  return liveQuery(() => conversationMessages(db, conversationId).toArray());
}

/** The newest messages of a conversation, oldest first, and whether older ones exist. */
export interface MessageTail {
  messages: Message[];
  hasEarlier: boolean;
}

/**
 * The newest `limit` messages of a conversation (every role), re-emitted on
 * every write. The conversation view reads this rather than `liveMessages`: a
 * streaming answer writes its message many times a second, and each write
 * re-runs the query, so the cost of one run must not grow with the history.
 * The index is walked backwards from the newest key and stops after
 * `limit + 1` rows; the extra row only says whether older messages exist.
 *
 * A tool result always comes after the assistant message that called it, so a
 * tail holding an assistant message holds that message's results too.
 */
export function liveTail(db: PausepointDb, conversationId: string, limit: number): Observable<MessageTail> {
  // An async querier, as Dexie wants one that awaits: its zone then follows the reads across the awaits (a plain arrow returning the promise re-ran once more per write).
  return liveQuery(async () => messageTail(db, conversationId, limit));
}

/** What `liveTail` emits, read once. */
export async function messageTail(db: PausepointDb, conversationId: string, limit: number): Promise<MessageTail> {
  const count = Math.max(1, Math.floor(limit));
  const newestFirst = await conversationMessages(db, conversationId)
    .reverse()
    .limit(count + 1)
    .toArray();
  const hasEarlier = newestFirst.length > count;
  const messages = newestFirst.slice(0, count).reverse();
  return { messages, hasEarlier };
}
