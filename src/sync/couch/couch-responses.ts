import { z } from 'zod';

/**
 * The shapes of CouchDB's answers that the client reads, checked with zod
 * before anything uses them: the server is the person's own, but what it
 * sends is still input from the network (a proxy's page, another kind of
 * server, a newer format). Objects are loose: servers add fields (CouchDB 3's
 * `sizes`, pouchdb-server's `adapter`) that we ignore.
 */

/**
 * A sequence is opaque: CouchDB 2+ sends strings ("12-g1AAAA…"), CouchDB 1.x
 * and pouchdb-server integers. Callers store it as a string and send it back
 * unchanged; `String(n)` of an integer is what those servers accept as `since`.
 */
export const CouchSeq = z.union([z.string(), z.number()]).transform((seq) => String(seq));

export interface CouchDocument {
  _id: string;
  _rev: string;
  _conflicts?: string[];
  [key: string]: unknown;
}

export const CouchDocument: z.ZodType<CouchDocument> = z.looseObject({
  _id: z.string(),
  _rev: z.string(),
  _conflicts: z.array(z.string()).optional(),
});

/** `{ "error": "conflict", "reason": "Document update conflict." }`, when the body is CouchDB's. */
export const CouchErrorBody = z.looseObject({ error: z.string(), reason: z.string().optional() });

export const DatabaseInfoBody = z.looseObject({ doc_count: z.number().int().nonnegative(), update_seq: CouchSeq });

/** PUT /db/id: `{ ok: true, id, rev }`. */
export const PutBody = z.looseObject({ id: z.string(), rev: z.string() });

export const BulkDocsBody = z.array(
  z.looseObject({ id: z.string(), rev: z.string().optional(), error: z.string().optional(), reason: z.string().optional() }),
);

/**
 * A row of _all_docs. A key asked for that has no document comes back as
 * `{ key, error: "not_found" }` with no id (read as undefined here); a
 * deleted one with `value.deleted: true` and `doc: null`.
 */
const AllDocsRow = z.union([
  z.looseObject({
    id: z.string(),
    value: z.looseObject({ rev: z.string(), deleted: z.boolean().optional() }),
    doc: CouchDocument.nullable().optional(),
  }),
  z.looseObject({ key: z.unknown(), error: z.string() }).transform(() => undefined),
]);

export const AllDocsBody = z.looseObject({ total_rows: z.number().int().nonnegative(), rows: z.array(AllDocsRow) });

/**
 * One entry of _changes. With the default `style=main_only`, `changes` holds
 * the winning revision only; `doc` is there with include_docs (a deleted
 * document's is its tombstone `{ _id, _rev, _deleted: true }`).
 */
const ChangeRow = z.looseObject({
  id: z.string(),
  seq: CouchSeq,
  changes: z.array(z.looseObject({ rev: z.string() })).min(1),
  deleted: z.boolean().optional(),
  doc: CouchDocument.nullable().optional(),
});

export const ChangesBody = z.looseObject({
  results: z.array(ChangeRow),
  last_seq: CouchSeq,
  pending: z.number().int().nonnegative().optional(),
});
