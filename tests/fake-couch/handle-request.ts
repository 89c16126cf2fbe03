import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerPreflight, setCorsHeaders } from './cors.ts';
import type { FakeCouchState, RecordedCouchRequest } from './fake-couch-state.ts';
import { FakeDatabase } from './fake-database.ts';
import { BadRequestBody, isRecord, readJsonBody } from './read-json-body.ts';
import { sendError, sendJson } from './send-json.ts';

/** CouchDB's default `[chttpd] changes_timeout`: a longpoll without heartbeat answers empty after this. */
const DEFAULT_CHANGES_TIMEOUT_MS = 60_000;

/** Routes one request: the CouchDB API the sync client uses, and nothing else (anything else is a 400). */
export async function handleRequest(state: FakeCouchState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  setCorsHeaders(req, res);
  if (req.method === 'OPTIONS') return answerPreflight(req, res);

  let request: RecordedCouchRequest;
  try {
    request = await recordRequest(req);
  } catch (error) {
    if (error instanceof BadRequestBody) return sendError(res, 400, 'bad_request', error.message);
    throw error;
  }
  state.log.push(request);

  const failure = state.faults.failures.find((f) => f.remaining > 0 && (f.matches === undefined || f.matches(request)));
  if (failure !== undefined) {
    failure.remaining--;
    return sendError(res, failure.status, failure.error, failure.reason);
  }

  const [name, ...rest] = request.path;
  if (name === undefined || name === '') return sendJson(res, 200, { couchdb: 'Welcome', version: '3.3.3', vendor: { name: 'fake-couch' } });
  const database = state.databases.get(name);

  if (rest.length === 0) {
    if (request.method === 'PUT') {
      if (database !== undefined) return sendError(res, 412, 'file_exists', 'The database could not be created, the file already exists.');
      state.databases.set(name, new FakeDatabase());
      return sendJson(res, 201, { ok: true });
    }
    if (request.method === 'GET') {
      if (database === undefined) return sendError(res, 404, 'not_found', 'Database does not exist.');
      return sendJson(res, 200, { db_name: name, doc_count: database.docCount, update_seq: database.updateSeq });
    }
  }
  if (database === undefined) return sendError(res, 404, 'not_found', 'Database does not exist.');

  const [what, ...extra] = rest;
  if (what === undefined || extra.length > 0) return sendError(res, 400, 'bad_request', `fake-couch: no route for ${request.path.join('/')}`);
  if (what === '_changes' && request.method === 'GET') return changes(state, database, request, res);
  if (what === '_all_docs') return allDocs(database, request, res);
  if (what === '_bulk_docs' && request.method === 'POST') return bulkDocs(database, request, res);
  if (what.startsWith('_')) return sendError(res, 400, 'bad_request', `fake-couch: no route for ${what}`);

  if (request.method === 'GET') {
    const doc = database.read(what, { ...(request.query.rev ? { rev: request.query.rev } : {}), conflicts: request.query.conflicts === 'true' });
    if (doc === undefined) return sendError(res, 404, 'not_found', database.isDeleted(what) === true ? 'deleted' : 'missing');
    return sendJson(res, 200, doc);
  }
  if (request.method === 'PUT') {
    if (!isRecord(request.body)) return sendError(res, 400, 'bad_request', 'Document must be a JSON object');
    const outcome = database.write(what, request.body);
    if (!outcome.ok) return sendError(res, outcome.status, outcome.error, outcome.reason);
    const create = request.body._rev === undefined;
    const accepted = create && state.faults.accepted202 > 0;
    if (accepted) state.faults.accepted202--;
    return sendJson(res, accepted ? 202 : 201, { ok: true, id: what, rev: outcome.rev });
  }
  return sendError(res, 405, 'method_not_allowed', `fake-couch: ${request.method} on a document`);
}

function changes(state: FakeCouchState, database: FakeDatabase, request: RecordedCouchRequest, res: ServerResponse): void {
  const { query } = request;
  const limit = query.limit === undefined ? undefined : Math.max(1, Number.parseInt(query.limit, 10));
  const includeDocs = query.include_docs === 'true';
  const read = () => database.changesSince(query.since, limit, includeDocs);
  const now = read();
  if (query.feed !== 'longpoll' || now.results.length > 0) {
    if (query.feed === 'longpoll' && state.faults.droppedLongpolls > 0) return hold(state, res);
    return sendJson(res, 200, now);
  }
  if (state.faults.droppedLongpolls > 0) return hold(state, res);

  // Wait for a change, as CouchDB does: with a heartbeat, a newline every beat and
  // no end of its own; without one, an empty answer after `timeout`.
  state.open.add(res);
  const since = query.since === 'now' ? database.updateSeq : query.since;
  const heartbeat = query.heartbeat === undefined ? undefined : Number.parseInt(query.heartbeat, 10);
  let timer: NodeJS.Timeout | undefined;
  const finish = (body: unknown) => {
    stop();
    res.end(JSON.stringify(body));
  };
  const unsubscribe = database.onChange(() => {
    const next = database.changesSince(since, limit, includeDocs);
    if (next.results.length > 0) finish(next);
  });
  const stop = () => {
    unsubscribe();
    if (timer !== undefined) clearInterval(timer);
    state.open.delete(res);
  };
  res.on('close', stop);
  res.writeHead(200, { 'content-type': 'application/json' });
  if (heartbeat !== undefined && heartbeat > 0) {
    timer = setInterval(() => res.write('\n'), heartbeat);
  } else {
    const timeout = Math.min(query.timeout === undefined ? DEFAULT_CHANGES_TIMEOUT_MS : Number.parseInt(query.timeout, 10), DEFAULT_CHANGES_TIMEOUT_MS);
    timer = setTimeout(() => finish(database.changesSince(since, limit, includeDocs)), timeout);
  }
}

/** A dropped longpoll: the request was read, and nothing will ever be written back. */
function hold(state: FakeCouchState, res: ServerResponse): void {
  state.faults.droppedLongpolls--;
  state.open.add(res);
  res.on('close', () => state.open.delete(res));
}

function allDocs(database: FakeDatabase, request: RecordedCouchRequest, res: ServerResponse): void {
  const { query, body } = request;
  let keys: string[] | undefined;
  const asked: unknown = request.method === 'POST' ? (isRecord(body) ? body.keys : undefined) : query.keys === undefined ? undefined : JSON.parse(query.keys);
  if (asked !== undefined) {
    if (!Array.isArray(asked) || !asked.every((key) => typeof key === 'string')) return sendError(res, 400, 'bad_request', '`keys` must be an array of strings');
    keys = asked;
  }
  const startKey: unknown = query.startkey === undefined ? undefined : JSON.parse(query.startkey);
  sendJson(
    res,
    200,
    database.allDocs({
      ...(keys === undefined ? {} : { keys }),
      ...(typeof startKey === 'string' ? { startKey } : {}),
      ...(query.limit === undefined ? {} : { limit: Number.parseInt(query.limit, 10) }),
      includeDocs: query.include_docs === 'true',
    }),
  );
}

function bulkDocs(database: FakeDatabase, request: RecordedCouchRequest, res: ServerResponse): void {
  const docs = isRecord(request.body) ? request.body.docs : undefined;
  if (!Array.isArray(docs) || !docs.every((doc) => isRecord(doc) && typeof doc._id === 'string')) {
    return sendError(res, 400, 'bad_request', '`docs` must be an array of documents with an _id');
  }
  const rows = (docs as Array<Record<string, unknown> & { _id: string }>).map((doc) => {
    const outcome = database.write(doc._id, doc);
    return outcome.ok ? { ok: true, id: doc._id, rev: outcome.rev } : { id: doc._id, error: outcome.error, reason: outcome.reason };
  });
  sendJson(res, 201, rows);
}

async function recordRequest(req: IncomingMessage): Promise<RecordedCouchRequest> {
  const url = new URL(req.url ?? '/', 'http://fake-couch.invalid');
  // Split before decoding: a database may be named `a/b`, sent as `a%2Fb`.
  const path = url.pathname.split('/').slice(1).map((segment) => decodeURIComponent(segment));
  // Prototype-free: names come from the client and may be `__proto__`.
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of url.searchParams) query[name] = value;
  const headers: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return { method: req.method ?? 'GET', path, query, headers, body: await readJsonBody(req) };
}
