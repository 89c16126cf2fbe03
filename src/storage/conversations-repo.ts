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
 * the history. With `titleContains`, only conversations whose title contains it
 * (case-insensitive); that needs every title, so it reads them all — only while
 * a filter is typed.
 */
export function liveConversationPage(db: PausepointDb, page: PageQuery): Observable<ConversationPage> {
  return liveQuery(() => conversationPage(db, page));
}

export interface PageQuery {
  limit: number;
  titleContains?: string;
}

/** What `liveConversationPage` emits, read once. */
export function conversationPage(db: PausepointDb, { limit, titleContains = '' }: PageQuery): Promise<ConversationPage> {
  const count = Math.max(1, Math.floor(limit));
  const needle = titleContains.trim().toLocaleLowerCase();
  const newestFirst = () => db.conversations.orderBy('updatedAt').reverse();
  return db.transaction('r', db.conversations, async (): Promise<ConversationPage> => {
    if (!needle) {
      const [conversations, total] = await Promise.all([newestFirst().limit(count).toArray(), db.conversations.count()]);
      return { conversations, total };
    }
    const matching = (await newestFirst().toArray()).filter((c) => c.title.toLocaleLowerCase().includes(needle));
    return { conversations: matching.slice(0, count), total: matching.length };
  });
}

/**
 * The conversations whose state is one of `kinds`, through the `state.kind`
 * index (schema version 2): few at any time, however many conversations exist.
 */
export function conversationsInStates(db: PausepointDb, kinds: readonly Conversation['state']['kind'][]): Promise<Conversation[]> {
  return db.conversations.where('state.kind').anyOf([...kinds]).toArray();
}
