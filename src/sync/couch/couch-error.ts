/**
 * Why a request to the sync server failed, split by what the person can do
 * about it: fix the address or wait (unreachable, timeout, server), fix the
 * server's settings (cors, no_database), fix the credentials (unauthorized,
 * forbidden). `conflict` is not a fault: it is CouchDB's compare-and-set
 * saying another device wrote first, and callers branch on it.
 * `bad_response` means the answer was not CouchDB's (a proxy's HTML page, a
 * server of another kind, a changed format); `aborted` means our own signal.
 */
export type CouchErrorKind =
  | 'unreachable'
  | 'cors'
  | 'unauthorized'
  | 'forbidden'
  | 'no_database'
  | 'conflict'
  | 'server'
  | 'bad_response'
  | 'aborted'
  | 'timeout';

/** What the status line says for each kind: what is true, then what to do. */
const MESSAGES: Record<CouchErrorKind, string> = {
  unreachable: 'The sync server did not answer: it is down, the address is wrong, or this device is offline.',
  cors: 'The sync server answered but refuses requests from this page (CORS): add this page’s origin to its [cors] settings.',
  unauthorized: 'The sync server refused the user name or password.',
  forbidden: 'The sync server accepted the user name and password, but that user may not use this database.',
  no_database: 'The database does not exist on the sync server.',
  conflict: 'The sync server already holds another version of this document.',
  server: 'The sync server failed to answer the request. Try again later; its log says why.',
  bad_response: 'The sync server’s answer was not what a CouchDB server sends. Check that the address is the CouchDB server itself.',
  aborted: 'The request to the sync server was cancelled.',
  timeout: 'The sync server stopped answering in the middle of a request.',
};

export class CouchError extends Error {
  override readonly name = 'CouchError';
  /** The HTTP status, when the server answered. */
  readonly status?: number;
  /** CouchDB's own `error`/`reason` words or the shape that failed, for a log or a bug report; never shown as the message. */
  readonly detail?: string;

  constructor(
    readonly kind: CouchErrorKind,
    options: { status?: number; detail?: string; message?: string; cause?: unknown } = {},
  ) {
    super(options.message ?? messageFor(kind, options.status), options.cause === undefined ? undefined : { cause: options.cause });
    if (options.status !== undefined) this.status = options.status;
    if (options.detail !== undefined) this.detail = options.detail;
  }
}

function messageFor(kind: CouchErrorKind, status: number | undefined): string {
  if (kind === 'server' && status !== undefined) return `The sync server failed to answer the request (HTTP ${status}). Try again later; its log says why.`;
  return MESSAGES[kind];
}
