import { liveQuery, type Observable } from 'dexie';
import type { Conversation } from '../engine/records/index.ts';
import type { PausepointDb } from './db.ts';

/** One conversation, or undefined once it is gone; re-emitted when that record changes. */
export function liveConversation(db: PausepointDb, id: string): Observable<Conversation | undefined> {
  return liveQuery(() => db.conversations.get(id));
}

/** The first conversations of a list, and how many the whole list holds. */
export interface ConversationPage {
  conversations: Conversation[];
  total: number;
}

/**
 * The `limit` most recently active conversations, and how many there are: a
 * sidebar reads one page, never the whole table, so start-up does not grow with
 * the history. (Finding older ones by title or text is the worker's search, src/search.)
 */
export function liveConversationPage(db: PausepointDb, page: PageQuery): Observable<ConversationPage> {
  return liveQuery(() => conversationPage(db, page));
}

export interface PageQuery {
  limit: number;
}

/** What `liveConversationPage` emits, read once. */
export function conversationPage(db: PausepointDb, { limit }: PageQuery): Promise<ConversationPage> {
  const count = Math.max(1, Math.floor(limit));
  return db.transaction('r', db.conversations, async (): Promise<ConversationPage> => {
    const [conversations, total] = await Promise.all([db.conversations.orderBy('updatedAt').reverse().limit(count).toArray(), db.conversations.count()]);
    return { conversations, total };
  });
}

/**
 * The conversations whose state is one of `kinds`, through the `state.kind`
 * index (schema version 2): few at any time, however many conversations exist.
 */
export function conversationsInStates(db: PausepointDb, kinds: readonly Conversation['state']['kind'][]): Promise<Conversation[]> {
  return db.conversations.where('state.kind').anyOf([...kinds]).toArray();
}
