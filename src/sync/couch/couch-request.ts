import { classifyFetchFailure } from './classify-fetch-failure.ts';
import { CouchError } from './couch-error.ts';
import { CouchErrorBody } from './couch-responses.ts';

/** Where requests go and as whom: built once by CouchClient from its config. */
export interface CouchTarget {
  /** The server's root URL without a trailing slash (a path prefix behind a proxy is kept). */
  root: string;
  /** `Basic …`, or undefined for a server without authentication. */
  authorization: string | undefined;
  fetch: typeof fetch;
}

export interface CouchRequest {
  method: 'GET' | 'PUT' | 'POST';
  /** Path segments below the root, each percent-encoded here: a database may be named `a/b`. */
  path: string[];
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Statuses the caller handles itself; any other is thrown as a CouchError. */
  accept: number[];
  signal?: AbortSignal | undefined;
  /** Silence longer than this (no headers, or no byte of the body) ends the request as 'timeout'. */
  idleMs: number;
  /** For a longpoll the client ends itself: after this the request resolves `{ ended: true }`. */
  endAfterMs?: number;
}

export type CouchAnswer = { ended: false; status: number; body: unknown } | { ended: true };

/**
 * A body larger than this is refused as bad_response rather than read: the
 * replicator reads in pages far below it, and a server (or something posing
 * as one) must not be able to exhaust the worker's memory.
 */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** `Basic` credentials over UTF-8: btoa alone would throw on a name or password outside Latin-1. */
export function basicAuthorization(username: string, password: string): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/**
 * One HTTP request to the sync server, every failure a CouchError. Every
 * request is sent with `credentials: 'omit'` (no cookies of the page's
 * other sites) and `redirect: 'error'`: the Authorization header goes to the
 * configured server and nowhere a redirect points.
 */
export async function couchRequest(target: CouchTarget, request: CouchRequest): Promise<CouchAnswer> {
  const url = urlOf(target.root, request.path, request.query);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (target.authorization !== undefined) headers.Authorization = target.authorization;
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';

  // One controller for everything that may end the request, and the reason it ended.
  const controller = new AbortController();
  let ending: 'timeout' | 'ended' | 'aborted' | undefined;
  // Aborting the fetch should be enough, but a read that is pending as a chunk
  // arrives can miss the abort (seen with Node 20's fetch: a longpoll ended as
  // pouchdb-server's heartbeat came in, and hung); every wait also races this.
  let stop = () => {};
  const stopped = new Promise<typeof STOPPED>((resolve) => (stop = () => resolve(STOPPED)));
  const end = (why: 'timeout' | 'ended' | 'aborted') => {
    ending ??= why;
    controller.abort();
    stop();
  };
  const onAbort = () => end('aborted');
  if (request.signal?.aborted) throw new CouchError('aborted');
  request.signal?.addEventListener('abort', onAbort, { once: true });
  let idle = setTimeout(() => end('timeout'), request.idleMs);
  // A poll ends quietly only once the server has shown it is there (headers,
  // a heartbeat): one that never answered at all has timed out, not ended.
  let heard = false;
  let endDue = false;
  const stillAlive = () => {
    heard = true;
    if (endDue) return end('ended');
    clearTimeout(idle);
    idle = setTimeout(() => end('timeout'), request.idleMs);
  };
  const endTimer =
    request.endAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          endDue = true;
          if (heard) end('ended');
        }, request.endAfterMs);

  try {
    let response: Response | typeof STOPPED;
    try {
      const fetching = target.fetch(url, {
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        credentials: 'omit',
        redirect: 'error',
        cache: 'no-store',
        signal: controller.signal,
      });
      response = await Promise.race([fetching, stopped]);
    } catch (error) {
      if (ending !== undefined) return endedAs(ending, error);
      // A TypeError is the browser's one answer for every network failure, CORS included.
      if (error instanceof TypeError) throw new CouchError(await classifyFetchFailure(`${target.root}/`, target.fetch), { cause: error });
      throw new CouchError('unreachable', { cause: error, detail: String(error) });
    }
    if (response === STOPPED) return endedAs(ending ?? 'aborted', undefined);
    stillAlive();

    let text: string;
    try {
      text = await readText(response, stillAlive, stopped);
    } catch (error) {
      if (ending !== undefined) return endedAs(ending, error);
      if (error instanceof CouchError) throw error;
      // The connection broke after the headers: the server went away mid-answer.
      throw new CouchError('unreachable', { cause: error, detail: String(error) });
    }

    const body = parseJson(text);
    if (!request.accept.includes(response.status)) throw statusError(response.status, body);
    if (body === NOT_JSON) throw new CouchError('bad_response', { status: response.status, detail: `not JSON: ${text.slice(0, 200)}` });
    return { ended: false, status: response.status, body };
  } finally {
    clearTimeout(idle);
    if (endTimer !== undefined) clearTimeout(endTimer);
    request.signal?.removeEventListener('abort', onAbort);
  }
}

function endedAs(why: 'timeout' | 'ended' | 'aborted', cause: unknown): CouchAnswer {
  if (why === 'ended') return { ended: true };
  throw new CouchError(why, { cause });
}

function urlOf(root: string, path: string[], query: CouchRequest['query']): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(name, String(value));
  }
  const text = search.toString();
  return `${root}/${path.map(encodeURIComponent).join('/')}${text === '' ? '' : `?${text}`}`;
}

/** Settles the races of a request that was ended (by its signal, its silence or its end). */
const STOPPED = Symbol('stopped');

class RequestStopped extends Error {
  override readonly name = 'RequestStopped';
}

/** Reads the body as it arrives, telling the caller of every chunk (a longpoll's heartbeat is one). */
async function readText(response: Response, onChunk: () => void, stopped: Promise<typeof STOPPED>): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const read = await Promise.race([reader.read(), stopped]);
    if (read === STOPPED) {
      // Releases the connection; a stream the abort already errored rejects, and the request has ended either way.
      reader.cancel().catch((alreadyErrored: unknown) => alreadyErrored);
      throw new RequestStopped();
    }
    const { done, value } = read;
    if (done) break;
    onChunk();
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new CouchError('bad_response', { status: response.status, detail: `body larger than ${MAX_BODY_BYTES} bytes` });
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON is an answer too (a proxy's error page): the status decides what it means.
    return NOT_JSON;
  }
}

/** A status the caller did not expect, as the kind a person can act on. */
function statusError(status: number, body: unknown): CouchError {
  const parsed = CouchErrorBody.safeParse(body);
  const detail = parsed.success ? `${parsed.data.error}${parsed.data.reason === undefined ? '' : `: ${parsed.data.reason}`}` : `HTTP ${status}`;
  if (status === 401) return new CouchError('unauthorized', { status, detail });
  if (status === 403) return new CouchError('forbidden', { status, detail });
  // A 404 the caller did not take for a missing document: the database itself is missing.
  if (status === 404) return new CouchError('no_database', { status, detail });
  if (status === 409) return new CouchError('conflict', { status, detail });
  if (status >= 500) return new CouchError('server', { status, detail });
  return new CouchError('bad_response', { status, detail });
}
