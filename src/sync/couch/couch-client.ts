/**
 * The CouchDB HTTP API as sync uses it: a small typed client over `fetch`,
 * every answer checked with zod (couch-responses.ts), every failure a
 * CouchError.
 *
 * Why not PouchDB (pouchdb-core + pouchdb-adapter-http): sync needs a handful
 * of requests — create-if-absent for decisions, _bulk_docs, _all_docs,
 * _changes — not a replicating database. PouchDB would bring its own local
 * store beside the app's Dexie tables (a second copy of every record, and a
 * second source of truth to reconcile), weighs far more in the worker than
 * this file, and its HTTP adapter's live changes are shaped for the page; here
 * the worker follows `_changes?feed=longpoll` itself, so it decides how a
 * silent connection is noticed (see `changes`). EventSource is no option
 * either: it cannot send an Authorization header.
 */
import type { z } from 'zod';
import { CouchError } from './couch-error.ts';
import { basicAuthorization, couchRequest, type CouchRequest, type CouchTarget } from './couch-request.ts';
import { AllDocsBody, BulkDocsBody, ChangesBody, CouchErrorBody, DatabaseInfoBody, PutBody, CouchDocument } from './couch-responses.ts';

export type { CouchDocument } from './couch-responses.ts';

export interface CouchConfig {
  /** The server's root, e.g. `https://couch.example.com` (a path prefix behind a proxy is kept). */
  serverUrl: string;
  database: string;
  /** Empty: a server without authentication, and no Authorization header is sent. */
  username: string;
  password: string;
  /** Defaults to the global fetch; tests pass their own. */
  fetch?: typeof fetch;
  /** Silence after which an ordinary request ends as 'timeout' (default 30 s). Longpolls have their own, see `changes`. */
  timeoutMs?: number;
}

export interface CouchChange {
  id: string;
  /** Opaque: store it, send it back as `since`, never compare or do arithmetic on it. */
  seq: string;
  deleted?: boolean;
  /** The winning revision. */
  rev: string;
  doc?: CouchDocument;
}

export interface CouchChanges {
  results: CouchChange[];
  /** The checkpoint to resume from; opaque like `seq`. */
  lastSeq: string;
  /** Changes left after this page (CouchDB 2+ with `limit`); pouchdb-server does not say. */
  pending?: number;
}

export interface CouchChangesOptions {
  since?: string;
  limit?: number;
  feed: 'normal' | 'longpoll';
  /** How long a longpoll waits for a change before it ends with no results (default 30 s, at most 60 s). */
  timeoutMs?: number;
  /** How often a longpoll asks the server for a heartbeat newline (default: half of timeoutMs, at most 10 s). */
  heartbeatMs?: number;
  includeDocs?: boolean;
  signal?: AbortSignal;
}

export type CreateResult = { outcome: 'created'; rev: string; accepted: boolean } | { outcome: 'conflict' };

export interface AllDocsRow {
  id: string;
  rev?: string;
  /** The document is deleted; its row is there with its last revision and no doc. */
  deleted?: boolean;
  doc?: CouchDocument;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_POLL_MS = 30_000;
/** CouchDB caps a feed's timeout at its `[chttpd] changes_timeout`, 60 s by default. */
const MAX_POLL_MS = 60_000;
const MAX_HEARTBEAT_MS = 10_000;
/**
 * The shortest silence that ends a longpoll as 'timeout', whatever heartbeat
 * was asked: pouchdb-server beats every 6 s regardless (it reads the query's
 * `heartbeat` as a string and falls back to its default), so less would end
 * its healthy polls.
 */
const MIN_POLL_SILENCE_MS = 8_000;
/** A server that honours `timeout` answers at the end of the poll; this is how long we wait for that answer before ending it ourselves. */
const POLL_END_GRACE_MS = 1_000;

export class CouchClient {
  readonly #target: CouchTarget;
  readonly #database: string;
  readonly #timeoutMs: number;

  constructor(config: CouchConfig) {
    this.#target = {
      root: config.serverUrl.replace(/\/+$/, ''),
      authorization: config.username === '' ? undefined : basicAuthorization(config.username, config.password),
      // Bound: a browser's fetch called as another object's method throws "Illegal invocation".
      fetch: config.fetch ?? globalThis.fetch.bind(globalThis),
    };
    this.#database = config.database;
    this.#timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** GET /db. A missing database is CouchError 'no_database'. */
  async databaseInfo(signal?: AbortSignal): Promise<{ docCount: number; updateSeq: string }> {
    const body = await this.#send({ method: 'GET', path: [this.#database], accept: [200], signal });
    const info = parse(DatabaseInfoBody, body, 'database info');
    return { docCount: info.doc_count, updateSeq: info.update_seq };
  }

  /** Whether the server answers this database as configured: 'ok', or the failure to show. */
  async probe(signal?: AbortSignal): Promise<'ok' | CouchError> {
    try {
      await this.databaseInfo(signal);
      return 'ok';
    } catch (error) {
      if (error instanceof CouchError) return error;
      throw error;
    }
  }

  /**
   * PUT /db. A database that already exists (412) is fine. Creating one takes
   * a server admin: CouchDB answers anyone else 401 "You are not a server
   * admin.", which is 'forbidden' here (the credentials are right, the rights
   * are not); wrong credentials stay 'unauthorized'. (pouchdb-server 4.2.0
   * crashes when a non-admin tries: tests create databases as its admin.)
   */
  async createDatabase(signal?: AbortSignal): Promise<void> {
    try {
      await this.#send({ method: 'PUT', path: [this.#database], accept: [201, 202, 412], signal });
    } catch (error) {
      if (error instanceof CouchError && (error.kind === 'unauthorized' || error.kind === 'forbidden') && /server admin/i.test(error.detail ?? '')) {
        throw new CouchError('forbidden', {
          ...(error.status === undefined ? {} : { status: error.status }),
          detail: error.detail ?? '',
          message: 'Only a server admin can create a database on the sync server: create it as the admin, then turn sync on.',
          cause: error,
        });
      }
      throw error;
    }
  }

  /**
   * GET /db/id: undefined when the document is missing or deleted. With
   * `conflicts`, a document that has stored conflicting revisions (as a
   * cluster can keep) lists them in `_conflicts`; `rev` reads one of those.
   */
  async getDocument(id: string, options: { conflicts?: boolean; rev?: string; signal?: AbortSignal } = {}): Promise<CouchDocument | undefined> {
    const answer = await this.#request({
      method: 'GET',
      path: [this.#database, id],
      query: { conflicts: options.conflicts === true ? true : undefined, rev: options.rev },
      accept: [200, 404],
      signal: options.signal,
    });
    if (answer.status === 404) {
      // The same status says "no such document" and "no such database"; only the reason tells them apart.
      const reason = CouchErrorBody.safeParse(answer.body);
      if (reason.success && (reason.data.reason === 'missing' || reason.data.reason === 'deleted')) return undefined;
      throw new CouchError('no_database', { status: 404, detail: reason.success ? `${reason.data.error}: ${reason.data.reason ?? ''}` : 'HTTP 404' });
    }
    return parse(CouchDocument, answer.body, 'document');
  }

  /**
   * Create-if-absent: PUT /db/id without a `_rev` (one in `body` is dropped),
   * the compare-and-set across devices. 201: this write is the document.
   * 409: another write was first. 202: stored, but not yet on a quorum of a
   * cluster's nodes, so not a win yet: the caller reads back with
   * `conflicts: true`.
   */
  async createDocument(id: string, body: Record<string, unknown>): Promise<CreateResult> {
    const { _rev: _dropped, ...fields } = body;
    const answer = await this.#request({ method: 'PUT', path: [this.#database, id], body: { ...fields, _id: id }, accept: [201, 202, 409] });
    if (answer.status === 409) return { outcome: 'conflict' };
    return { outcome: 'created', rev: parse(PutBody, answer.body, 'created document').rev, accepted: answer.status === 202 };
  }

  /** PUT /db/id as a new revision of `rev` (undefined: a new document). A stale or missing rev is CouchError 'conflict'. */
  async putDocument(id: string, rev: string | undefined, body: Record<string, unknown>): Promise<{ rev: string }> {
    const { _rev: _replaced, ...fields } = body;
    const document = rev === undefined ? { ...fields, _id: id } : { ...fields, _id: id, _rev: rev };
    const answer = await this.#request({ method: 'PUT', path: [this.#database, id], body: document, accept: [201, 202] });
    return { rev: parse(PutBody, answer.body, 'stored document').rev };
  }

  /** POST /db/_bulk_docs: one row per document, in order, each with its new rev or its error (`conflict`, `forbidden`, …). */
  async bulkDocs(
    docs: Array<{ _id: string; _rev?: string; [key: string]: unknown }>,
    signal?: AbortSignal,
  ): Promise<Array<{ id: string; rev?: string; error?: string; reason?: string }>> {
    const body = await this.#send({ method: 'POST', path: [this.#database, '_bulk_docs'], body: { docs }, accept: [200, 201, 202], signal });
    return parse(BulkDocsBody, body, 'bulk docs result').map((row) => ({
      id: row.id,
      ...(row.rev === undefined || row.error !== undefined ? {} : { rev: row.rev }),
      ...(row.error === undefined ? {} : { error: row.error }),
      ...(row.reason === undefined ? {} : { reason: row.reason }),
    }));
  }

  /**
   * _all_docs, in id order. With `keys` (sent as a POST body, not in the URL,
   * whose length servers limit), keys that have no document are left out of
   * `rows`; deleted ones are in with `deleted: true`.
   */
  async allDocs(options: {
    keys?: string[];
    startKey?: string;
    /** Inclusive, like CouchDB's `endkey`. */
    endKey?: string;
    limit?: number;
    includeDocs?: boolean;
    signal?: AbortSignal;
  }): Promise<{ rows: AllDocsRow[]; totalRows: number }> {
    const query = {
      include_docs: options.includeDocs === true ? true : undefined,
      startkey: options.startKey === undefined ? undefined : JSON.stringify(options.startKey),
      endkey: options.endKey === undefined ? undefined : JSON.stringify(options.endKey),
      limit: options.limit,
    };
    const path = [this.#database, '_all_docs'];
    const body =
      options.keys === undefined
        ? await this.#send({ method: 'GET', path, query, accept: [200], signal: options.signal })
        : await this.#send({ method: 'POST', path, query, body: { keys: options.keys }, accept: [200], signal: options.signal });
    const parsed = parse(AllDocsBody, body, 'all docs');
    const rows: AllDocsRow[] = [];
    for (const row of parsed.rows) {
      if (row === undefined) continue;
      rows.push({
        id: row.id,
        rev: row.value.rev,
        ...(row.value.deleted === true ? { deleted: true } : {}),
        ...(row.doc ? { doc: row.doc } : {}),
      });
    }
    return { rows, totalRows: parsed.total_rows };
  }

  /**
   * GET /db/_changes. A `normal` feed answers at once. A `longpoll` answers
   * when a change arrives after `since`, or ends with no results and
   * `lastSeq` = `since` once `timeoutMs` has passed.
   *
   * How the poll ends matters more than how it starts: a connection can stay
   * open with nobody answering on the other end (a laptop that slept, a NAT
   * that forgot the socket, a proxy that died). So the poll asks for a
   * `heartbeat`: the server writes a newline every `heartbeatMs` while it
   * waits, and silence for longer than two beats (or one beat and 2 s, and
   * never less than 8 s) ends the request as CouchError 'timeout' instead of
   * hanging forever. A
   * heartbeat keeps CouchDB's feed open past its `timeout` (it is sent
   * anyway, for servers that honour both), and pouchdb-server ignores
   * `timeout` altogether, so the client ends a quiet poll itself, a little
   * after `timeoutMs`. A change the server began to write just then is not
   * lost: `lastSeq` stays at `since`, and the next poll gets it again.
   * A reverse proxy in front of CouchDB must not buffer responses
   * (nginx: `proxy_buffering off`), or the heartbeats never arrive.
   */
  async changes(options: CouchChangesOptions): Promise<CouchChanges> {
    const longpoll = options.feed === 'longpoll';
    const pollMs = Math.min(options.timeoutMs ?? DEFAULT_POLL_MS, MAX_POLL_MS);
    const heartbeatMs = options.heartbeatMs ?? Math.max(100, Math.min(MAX_HEARTBEAT_MS, Math.floor(pollMs / 2)));
    const request: CouchRequest = {
      method: 'GET',
      path: [this.#database, '_changes'],
      query: {
        feed: options.feed,
        since: options.since,
        limit: options.limit,
        include_docs: options.includeDocs === true ? true : undefined,
        timeout: longpoll ? pollMs : undefined,
        heartbeat: longpoll ? heartbeatMs : undefined,
      },
      accept: [200],
      signal: options.signal,
      idleMs: longpoll ? Math.max(heartbeatMs + Math.max(heartbeatMs, 2_000), MIN_POLL_SILENCE_MS) : this.#timeoutMs,
      ...(longpoll ? { endAfterMs: pollMs + POLL_END_GRACE_MS } : {}),
    };
    const answer = await couchRequest(this.#target, request);
    if (answer.ended) return { results: [], lastSeq: options.since ?? '0' };

    const parsed = parse(ChangesBody, answer.body, 'changes');
    return {
      results: parsed.results.map((row) => ({
        id: row.id,
        seq: row.seq,
        ...(row.deleted === true ? { deleted: true } : {}),
        rev: row.changes[0]?.rev ?? '',
        ...(row.doc ? { doc: row.doc } : {}),
      })),
      lastSeq: parsed.last_seq,
      ...(parsed.pending === undefined ? {} : { pending: parsed.pending }),
    };
  }

  /** A request whose accepted statuses all mean success: its body. */
  async #send(request: Omit<CouchRequest, 'idleMs'>): Promise<unknown> {
    return (await this.#request(request)).body;
  }

  async #request(request: Omit<CouchRequest, 'idleMs'>): Promise<{ status: number; body: unknown }> {
    const answer = await couchRequest(this.#target, { ...request, idleMs: this.#timeoutMs });
    // Only a longpoll has an end of its own; an ordinary request never resolves `ended`.
    if (answer.ended) throw new CouchError('timeout');
    return answer;
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new CouchError('bad_response', { detail: `${what}: ${issue ? `${issue.path.join('.')} ${issue.message}` : 'unexpected shape'}` });
  }
  return result.data;
}
