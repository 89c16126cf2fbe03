import Dexie from 'dexie';
import type { CallUsage } from '../engine/records/index.ts';
import type { PausepointDb } from './db.ts';

export interface DatedUsage {
  usage: CallUsage;
  at: number;
  conversationId: string;
}

/**
 * Every model call's usage since `since` (ms), across conversations. Reads
 * only the conversations touched since then (an answer stored moves
 * `updatedAt`), through the updatedAt index, and their messages.
 */
export async function usageSince(db: PausepointDb, since: number): Promise<DatedUsage[]> {
  return db.transaction('r', db.conversations, db.messages, async () => {
    const ids = (await db.conversations.where('updatedAt').aboveOrEqual(since).primaryKeys()) as string[];
    const out: DatedUsage[] = [];
    for (const id of ids) {
      const messages = await db.messages.where('[conversationId+seq]').between([id, Dexie.minKey], [id, Dexie.maxKey]).toArray();
      for (const m of messages) {
        if (m.role === 'assistant' && m.usage && m.createdAt >= since) out.push({ usage: m.usage, at: m.createdAt, conversationId: id });
      }
    }
    return out;
  });
}

/** The start of the local day that `now` falls in. */
export function startOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The start of the local month that `now` falls in. */
export function startOfMonth(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  d.setDate(1);
  return d.getTime();
}
