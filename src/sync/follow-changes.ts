import { applyDocuments, type Applied, type Incoming } from './apply-documents.ts';
import { claimsFirst } from './claims-first.ts';
import { CouchError } from './couch/couch-error.ts';
import { MEMBER_PREFIX, MembershipEntry } from './membership/membership-entry.ts';
import type { MembershipNews } from './membership/live-membership.ts';
import { UnreadableDocument } from './sealed-documents.ts';
import type { SyncContext } from './sync-context.ts';
import type { DecisionClaim } from './sync-document.ts';

/** Changes per page: a first sync of a long history streams in pages of this many, each applied whole. */
export const PAGE = 500;
/** How long the server may hold a longpoll open before it answers with nothing. */
export const LONGPOLL_MS = 25_000;

export interface PageRead {
  applied: Applied;
  /** Documents that failed to open (decrypt, schema, misplaced, signature): skipped and counted. */
  unreadable: number;
  /** Of those, documents written before documents were signed (an older version): the status line says what to do. */
  unsigned: number;
  /** What the membership log's new entries mean here, when the page showed some. */
  membership?: MembershipNews;
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
export async function readPage(
  ctx: SyncContext,
  since: string,
  feed: 'normal' | 'longpoll',
  signal?: AbortSignal,
  /** Applies another device's claim for a card this device runs, before the rest of the page (claims-first.ts); such claims are then not in `applied.claims`. */
  applyClaim?: (claim: DecisionClaim) => Promise<void>,
): Promise<PageRead> {
  const page = await ctx.client.changes({ since, limit: PAGE, feed, timeoutMs: LONGPOLL_MS, includeDocs: true, ...(signal ? { signal } : {}) });
  let results = page.results;
  let pending = page.pending;
  // The log first: a device that joined writes its entry before anything else, and its documents are checked against it.
  let membership = results.some((change) => change.id.startsWith(MEMBER_PREFIX)) ? await ctx.membership.follow() : undefined;
  if (membership?.rotated || membership?.removedHere) {
    // The page ends at the rotation: what follows may be sealed under the new key, so this device takes it first and reads
    // on from there, or a claim made under the new key would be skipped as unreadable, and lost.
    const at = results.findIndex((change) => isRotationPast(change.doc, ctx.epoch));
    const cut = at === -1 ? results.findIndex((change) => change.id.startsWith(MEMBER_PREFIX)) : at;
    pending = results.length - (cut + 1) + (pending ?? 0);
    results = results.slice(0, cut + 1);
  }
  const sealed = results.flatMap((change) => (change.deleted || !change.doc || change.id.startsWith('_') || !('e' in change.doc) ? [] : [change.doc]));
  const opened = await Promise.all(sealed.map((doc) => openOne(ctx, doc)));
  // Signed by a device this one has not pinned yet: its entry may have come after this page was read. Once more, after the log.
  if (!membership && opened.some((o) => o instanceof UnreadableDocument && o.reason === 'signer')) {
    membership = await ctx.membership.follow();
    for (const [i, o] of opened.entries()) if (o instanceof UnreadableDocument && o.reason === 'signer') opened[i] = await openOne(ctx, sealed[i]!);
  }
  const incoming: Incoming[] = [];
  let unreadable = 0;
  let unsigned = 0;
  for (const o of opened) {
    if (!(o instanceof UnreadableDocument)) {
      incoming.push(o);
      continue;
    }
    if (o.reason === 'superseded') continue;
    console.warn('Pausepoint:', o.message);
    unreadable++;
    if (o.reason === 'unsigned') unsigned++;
  }
  const first = applyClaim ? await claimsFirst(ctx, incoming) : [];
  if (applyClaim) for (const claim of first) await applyClaim(claim);
  const applied = await applyDocuments(ctx, incoming);
  if (first.length > 0) applied.claims = applied.claims.filter((claim) => !first.some((done) => done.pausePointId === claim.pausePointId));
  const last = results.at(-1);
  return {
    applied,
    unreadable,
    unsigned,
    lastSeq: last && results.length < page.results.length ? last.seq : page.lastSeq,
    count: results.length,
    ...(membership ? { membership } : {}),
    ...(pending === undefined ? {} : { pending }),
  };
}

/** A membership entry that rotates the data key past `epoch` (checked by the log; here only to find where the page ends). */
function isRotationPast(doc: unknown, epoch: number): boolean {
  const entry = MembershipEntry.safeParse(typeof doc === 'object' && doc !== null ? (doc as { m?: unknown }).m : undefined);
  return entry.success && entry.data.op === 'remove' && entry.data.epoch > epoch;
}

/**
 * One document opened (decrypted, its signature checked), or why not. The
 * page's documents are opened at once: WebCrypto runs each off the thread,
 * so a page of 500 costs about as long as its slowest few, not their sum.
 */
async function openOne(ctx: SyncContext, doc: { _id: string; _rev: string; e?: unknown }): Promise<Incoming | UnreadableDocument> {
  try {
    return { doc: await ctx.sealed.open(doc), docId: doc._id, rev: doc._rev };
  } catch (error) {
    if (error instanceof UnreadableDocument) return error;
    throw error;
  }
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
