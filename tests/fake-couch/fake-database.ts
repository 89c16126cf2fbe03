import { randomBytes } from 'node:crypto';

/** One revision of a document as stored: its fields without `_id`/`_rev`. */
interface Revision {
  rev: string;
  fields: Record<string, unknown>;
  deleted: boolean;
}

/** A document: its open leaves (more than one is a stored conflict) and every revision it ever had. */
interface Entry {
  leaves: Revision[];
  history: Map<string, Revision>;
}

/** A line of the changes feed; `seq` is its 1-based position. */
interface FeedLine {
  id: string;
  revision: Revision;
  /** Superseded by a later write of the same document: CouchDB lists a document once, at its latest change. */
  superseded: boolean;
}

export type WriteOutcome = { ok: true; rev: string } | { ok: false; status: 400 | 409; error: string; reason: string };

export interface ChangeRow {
  seq: string;
  id: string;
  changes: Array<{ rev: string }>;
  deleted?: true;
  doc?: Record<string, unknown>;
}

/**
 * One database of the fake, with CouchDB's rules where the tests need them:
 * a write without `_rev` to a live document, or with a rev that is not the
 * winner's, is a 409; the winner among conflicting leaves is CouchDB's
 * (not deleted, then the highest generation, then the highest rev string);
 * sequences are opaque strings, as CouchDB 2+ sends them.
 */
export class FakeDatabase {
  readonly #docs = new Map<string, Entry>();
  readonly #feed: FeedLine[] = [];
  readonly #listeners = new Set<() => void>();

  get updateSeq(): string {
    return seqString(this.#feed.length);
  }

  get docCount(): number {
    let count = 0;
    for (const entry of this.#docs.values()) if (!winnerOf(entry).deleted) count++;
    return count;
  }

  /** A PUT or a _bulk_docs row: `body` may carry `_rev` and `_deleted`. */
  write(id: string, body: Record<string, unknown>): WriteOutcome {
    const { _id: _ignored, _rev: rev, _deleted: deleted, ...fields } = body;
    if (rev !== undefined && typeof rev !== 'string') return { ok: false, status: 400, error: 'bad_request', reason: 'Invalid rev format' };
    const entry = this.#docs.get(id);
    const winner = entry === undefined ? undefined : winnerOf(entry);
    const live = winner !== undefined && !winner.deleted;
    if (rev === undefined ? live : rev !== winner?.rev) return { ok: false, status: 409, error: 'conflict', reason: 'Document update conflict.' };
    const generation = winner === undefined ? 1 : generationOf(winner.rev) + 1;
    const revision: Revision = { rev: newRev(generation), fields, deleted: deleted === true };
    this.#store(id, revision, winner);
    return { ok: true, rev: revision.rev };
  }

  /**
   * A conflicting leaf beside the current one, as a cluster keeps after two
   * nodes each accepted a create: same generation as the winner, its rev
   * chosen to sort above (`wins`) or below it.
   */
  storeConflict(id: string, fields: Record<string, unknown>, wins: boolean): string {
    const entry = this.#docs.get(id);
    if (entry === undefined) throw new Error(`fake-couch: no document ${id} to conflict with`);
    const winner = winnerOf(entry);
    let rev: string;
    do rev = `${generationOf(winner.rev)}-${wins ? 'f' : '0'}${randomBytes(15).toString('hex')}f`;
    while (rev > winner.rev !== wins);
    const revision: Revision = { rev, fields, deleted: false };
    entry.leaves.push(revision);
    entry.history.set(revision.rev, revision);
    this.#append(id, winnerOf(entry));
    return revision.rev;
  }

  /** Appends an old revision of a document to the feed again, as a server restored from a backup or a confused proxy might. */
  replay(id: string, rev: string): void {
    const revision = this.#docs.get(id)?.history.get(rev);
    if (revision === undefined) throw new Error(`fake-couch: no revision ${rev} of ${id}`);
    this.#feed.push({ id, revision, superseded: false });
    this.#notify();
  }

  /** The document as GET answers it: the winner, a given revision, and with `conflicts` the other leaves. */
  read(id: string, options: { rev?: string; conflicts?: boolean } = {}): Record<string, unknown> | undefined {
    const entry = this.#docs.get(id);
    if (entry === undefined) return undefined;
    const revision = options.rev === undefined ? winnerOf(entry) : entry.history.get(options.rev);
    if (revision === undefined || (options.rev === undefined && revision.deleted)) return undefined;
    const others = entry.leaves.filter((leaf) => leaf !== revision && !leaf.deleted).map((leaf) => leaf.rev);
    return { ...documentOf(id, revision), ...(options.conflicts && others.length > 0 ? { _conflicts: others } : {}) };
  }

  /** `undefined`: no such document; otherwise whether it is deleted. */
  isDeleted(id: string): boolean | undefined {
    const entry = this.#docs.get(id);
    return entry === undefined ? undefined : winnerOf(entry).deleted;
  }

  /** _all_docs rows in id order, or in the order of `keys`. */
  allDocs(options: { keys?: string[]; startKey?: string; limit?: number; includeDocs: boolean }): { total_rows: number; rows: unknown[] } {
    const ids = options.keys ?? [...this.#docs.keys()].filter((id) => !winnerOf(this.#docs.get(id) as Entry).deleted).sort();
    const from = options.keys === undefined && options.startKey !== undefined ? ids.filter((id) => id >= (options.startKey as string)) : ids;
    const page = options.limit === undefined ? from : from.slice(0, options.limit);
    const rows = page.map((id) => {
      const entry = this.#docs.get(id);
      if (entry === undefined) return { key: id, error: 'not_found' };
      const winner = winnerOf(entry);
      if (winner.deleted) return { id, key: id, value: { rev: winner.rev, deleted: true }, doc: null };
      return { id, key: id, value: { rev: winner.rev }, ...(options.includeDocs ? { doc: documentOf(id, winner) } : {}) };
    });
    return { total_rows: this.docCount, rows };
  }

  /** The changes after `since` (a seq this database gave, `0`, or `now`), at most `limit`. */
  changesSince(since: string | undefined, limit: number | undefined, includeDocs: boolean): { results: ChangeRow[]; last_seq: string; pending: number } {
    const start = since === 'now' ? this.#feed.length : since === undefined ? 0 : Number.parseInt(since, 10) || 0;
    const lines = this.#feed
      .map((line, index) => ({ line, seq: index + 1 }))
      .filter(({ line, seq }) => seq > start && !line.superseded);
    const page = limit === undefined ? lines : lines.slice(0, limit);
    const results = page.map(({ line, seq }) => ({
      seq: seqString(seq),
      id: line.id,
      changes: [{ rev: line.revision.rev }],
      ...(line.revision.deleted ? { deleted: true as const } : {}),
      ...(includeDocs ? { doc: documentOf(line.id, line.revision) } : {}),
    }));
    // Nothing after `since` (or only superseded lines): the feed's end, as CouchDB answers.
    const last = page.at(-1)?.seq ?? this.#feed.length;
    return { results, last_seq: seqString(last), pending: lines.length - page.length };
  }

  /** Called after every change to the feed, until the returned function is called. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #store(id: string, revision: Revision, replacing: Revision | undefined): void {
    const entry = this.#docs.get(id) ?? { leaves: [], history: new Map<string, Revision>() };
    entry.leaves = [...entry.leaves.filter((leaf) => leaf !== replacing), revision];
    entry.history.set(revision.rev, revision);
    this.#docs.set(id, entry);
    this.#append(id, revision);
  }

  #append(id: string, revision: Revision): void {
    for (const line of this.#feed) if (line.id === id) line.superseded = true;
    this.#feed.push({ id, revision, superseded: false });
    this.#notify();
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}

function winnerOf(entry: Entry): Revision {
  const sorted = [...entry.leaves].sort((a, b) => {
    if (a.deleted !== b.deleted) return a.deleted ? 1 : -1;
    const generations = generationOf(b.rev) - generationOf(a.rev);
    return generations !== 0 ? generations : b.rev < a.rev ? -1 : b.rev > a.rev ? 1 : 0;
  });
  const winner = sorted[0];
  if (winner === undefined) throw new Error('fake-couch: a document without revisions');
  return winner;
}

function documentOf(id: string, revision: Revision): Record<string, unknown> {
  return { ...revision.fields, _id: id, _rev: revision.rev, ...(revision.deleted ? { _deleted: true } : {}) };
}

function generationOf(rev: string): number {
  return Number.parseInt(rev, 10);
}

function newRev(generation: number): string {
  return `${generation}-${randomBytes(16).toString('hex')}`;
}

/** Shaped like CouchDB 2+'s: a number, then an opaque tail that clients must not read. */
function seqString(seq: number): string {
  return `${seq}-g1AAAAB${seq.toString(16).padStart(8, '0')}fake`;
}
