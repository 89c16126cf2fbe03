import { liveQuery, type Observable } from 'dexie';
import type { Conversation } from '../engine/records/index.ts';
// Not from the records' index: that would load every record schema, and zod, with the page.
import { newConversation } from '../engine/records/new-conversation.ts';
import type { PausepointDb } from './db.ts';
import { conversationMessages } from './messages-repo.ts';
import { StorageError, toStorageError } from './storage-error.ts';

export async function createConversation(
  db: PausepointDb,
  { id, title, now }: { id: string; title: string; now: number },
): Promise<Conversation> {
  const conversation = newConversation({ id, title, now });
  try {
    await db.conversations.add(conversation);
  } catch (error) {
    throw toStorageError(error);
  }
  return conversation;
}

/**
 * Renames without touching `updatedAt`: the list is ordered by activity, and a
 * rename is not activity. Inside a transaction so a concurrent write by the
 * worker (state, nextSeq) is never lost to a stale copy.
 */
export async function renameConversation(db: PausepointDb, id: string, title: string): Promise<Conversation> {
  try {
    return await db.transaction('rw', db.conversations, async () => {
      const current = await db.conversations.get(id);
      if (!current) throw new StorageError('not_found', `No conversation ${id}.`);
      const renamed = { ...current, title };
      await db.conversations.put(renamed);
      return renamed;
    });
  } catch (error) {
    throw toStorageError(error);
  }
}

/**
 * Deletes a conversation with its messages, pause points and ledger entries,
 * all or nothing. Returns whether the conversation existed. Deleting a
 * conversation deletes its audit trail too: the UI says so before calling this.
 */
export async function deleteConversation(db: PausepointDb, id: string): Promise<boolean> {
  try {
    return await db.transaction('rw', [db.conversations, db.messages, db.pausePoints, db.ledger], async () => {
      const existed = (await db.conversations.where('id').equals(id).delete()) > 0;
      await conversationMessages(db, id).delete();
      await db.pausePoints.where('conversationId').equals(id).delete();
      await db.ledger.where('conversationId').equals(id).delete();
      return existed;
    });
  } catch (error) {
    throw toStorageError(error);
  }
}

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
export function liveConversationPage(db: PausepointDb, { limit, titleContains = '' }: { limit: number; titleContains?: string }): Observable<ConversationPage> {
  const count = Math.max(1, Math.floor(limit));
  const needle = titleContains.trim().toLocaleLowerCase();
  const newestFirst = () => db.conversations.orderBy('updatedAt').reverse();
  return liveQuery(() =>
    db.transaction('r', db.conversations, async (): Promise<ConversationPage> => {
      if (!needle) {
        const [conversations, total] = await Promise.all([newestFirst().limit(count).toArray(), db.conversations.count()]);
        return { conversations, total };
      }
      const matching = (await newestFirst().toArray()).filter((c) => c.title.toLocaleLowerCase().includes(needle));
      return { conversations: matching.slice(0, count), total: matching.length };
    }),
  );
}

/**
 * The conversations whose state is one of `kinds`, through the `state.kind`
 * index (schema version 2): few at any time, however many conversations exist.
 */
export function conversationsInStates(db: PausepointDb, kinds: readonly Conversation['state']['kind'][]): Promise<Conversation[]> {
  return db.conversations.where('state.kind').anyOf([...kinds]).toArray();
}
