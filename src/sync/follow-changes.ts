import { applyDocuments, type Applied, type Incoming } from './apply-documents.ts';
import { CouchError } from './couch/couch-error.ts';
import { UnreadableDocument } from './sealed-documents.ts';
import type { SyncContext } from './sync-context.ts';

/** Changes per page: a first sync of a long history streams in pages of this many, each applied whole. */
export const PAGE = 500;
/** How long the server may hold a longpoll open before it answers with nothing. */
export const LONGPOLL_MS = 25_000;

export interface PageRead {
  applied: Applied;
  /** Documents that failed to open (decrypt, schema, misplaced): skipped and counted. */
  unreadable: number;
  lastSeq: string;
  /** How many changes came in this page; a full page means more are waiting. */
  count: number;
  /** Changes still waiting after this page, when the server says. */
  pending?: number;
}

/**
 * Reads one page of the server's changes after `since` and applies it.
 * `longpoll`: the server holds the request until something changes (or its
 * timeout), which is how another device's decision reaches this one at once;
 * EventSource cannot send the Authorization header, so longpoll it is. The
 * checkpoint moves only after the page is applied, and applying a page again
 * changes nothing, so a feed cut anywhere resumes from the checkpoint.
 */
export async function readPage(ctx: SyncContext, since: string, feed: 'normal' | 'longpoll', signal?: AbortSignal): Promise<PageRead> {
  const page = await ctx.client.changes({ since, limit: PAGE, feed, timeoutMs: LONGPOLL_MS, includeDocs: true, ...(signal ? { signal } : {}) });
  const incoming: Incoming[] = [];
  let unreadable = 0;
  for (const [i, change] of page.results.entries()) {
    if (change.deleted || !change.doc || change.id.startsWith('_') || !('e' in change.doc)) continue;
    try {
      const doc = await ctx.sealed.open(change.doc);
      incoming.push({ doc, docId: change.id, rev: change.doc._rev });
      // The page ends at a rotation past this device's key: what follows may be sealed under the new key, so this device
      // takes it first and reads on from here, or a claim made under the new key would be skipped as unreadable, and lost.
      if (doc.kind === 'rotation' && doc.record.epoch > ctx.epoch) {
        const rest = page.results.length - (i + 1) + (page.pending ?? 0);
        return { applied: await applyDocuments(ctx, incoming), unreadable, lastSeq: change.seq, count: i + 1, pending: rest };
      }
    } catch (error) {
      if (!(error instanceof UnreadableDocument)) throw error;
      if (error.reason === 'superseded') continue;
      console.warn('Pausepoint:', error.message);
      unreadable++;
    }
  }
  const applied = await applyDocuments(ctx, incoming);
  return { applied, unreadable, lastSeq: page.lastSeq, count: page.results.length, ...(page.pending === undefined ? {} : { pending: page.pending }) };
}

/** Waits before trying the server again: 1 s, doubling up to 30 s, cut short by `signal`. */
export function backoff(attempt: number, signal: AbortSignal): Promise<void> {
  const ms = Math.min(30_000, 1_000 * 2 ** Math.max(0, attempt - 1));
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export function isCouchError(error: unknown): error is CouchError {
  return error instanceof CouchError;
}
