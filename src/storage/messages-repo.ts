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
