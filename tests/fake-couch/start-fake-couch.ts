import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FakeCouchState, RecordedCouchRequest } from './fake-couch-state.ts';
import { FakeDatabase } from './fake-database.ts';
import { handleRequest } from './handle-request.ts';

export interface FakeCouchOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
}

export interface FakeCouch {
  /** `http://127.0.0.1:PORT`, no trailing slash: a CouchClient's `serverUrl`. */
  readonly url: string;
  readonly port: number;
  /** Every request received (preflights aside), in order. A fresh copy on each read. */
  readonly requests: RecordedCouchRequest[];
  /** Creates an empty database (no authentication: the fake accepts any credentials and records them). */
  createDatabase(name: string): void;
  /** A database's contents, for seeding and asserting without going through HTTP. */
  database(name: string): FakeDatabase;
  /** The next `count` creates (PUT without `_rev`) store the document and answer 202 Accepted, as a cluster short of a quorum does. */
  answerCreatesWith202(count?: number): void;
  /**
   * Stores a conflicting revision of an existing document, as a cluster keeps
   * after two nodes each accepted a create: GET with `conflicts=true` lists the
   * loser in `_conflicts`. `wins` makes the new revision the winner. Returns its rev.
   */
  storeConflict(database: string, id: string, fields: Record<string, unknown>, options?: { wins?: boolean }): string;
  /** Sends an old revision of a document through `_changes` again, at a new seq. */
  replayRevision(database: string, id: string, rev: string): void;
  /** The next `count` longpolls are held: the socket stays open and nothing is ever written back. */
  dropLongpolls(count?: number): void;
  /** The next `count` requests (that `matches`, when given) answer `status` (500 unless told) with CouchDB's error shape. */
  failNext(count?: number, options?: { status?: number; error?: string; reason?: string; matches?: (request: RecordedCouchRequest) => boolean }): void;
  /** Stops the server, cutting held and waiting responses; safe to call twice. */
  close(): Promise<void>;
}

/**
 * A scriptable CouchDB-protocol server, ONLY for what pouchdb-server cannot
 * do (see README.md); everything else is tested against the real one
 * (tests/couch/pouchdb-server.ts). Loopback only: it accepts any request.
 */
export async function startFakeCouch(options: FakeCouchOptions = {}): Promise<FakeCouch> {
  const state: FakeCouchState = {
    databases: new Map(),
    faults: { accepted202: 0, droppedLongpolls: 0, failures: [] },
    log: [],
    open: new Set(),
  };
  const server = createServer((req, res) => void respond(state, req, res));
  // Tracked so close() can destroy them: held longpolls never end by themselves.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake-couch: server has no TCP address');

  const database = (name: string) => {
    const found = state.databases.get(name);
    if (found === undefined) throw new Error(`fake-couch: no database ${name}`);
    return found;
  };
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    get requests() {
      return [...state.log];
    },
    createDatabase: (name) => {
      if (!state.databases.has(name)) state.databases.set(name, new FakeDatabase());
    },
    database,
    answerCreatesWith202: (count = 1) => {
      state.faults.accepted202 += count;
    },
    storeConflict: (name, id, fields, conflict = {}) => database(name).storeConflict(id, fields, conflict.wins ?? false),
    replayRevision: (name, id, rev) => database(name).replay(id, rev),
    dropLongpolls: (count = 1) => {
      state.faults.droppedLongpolls += count;
    },
    failNext: (count = 1, failure = {}) => {
      state.faults.failures.push({
        status: failure.status ?? 500,
        error: failure.error ?? 'unknown_error',
        reason: failure.reason ?? 'fake-couch: scripted failure',
        remaining: count,
        ...(failure.matches ? { matches: failure.matches } : {}),
      });
    },
    close: () => {
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}

/** A handler that threw answers a loud 500 instead of leaving the request hanging. */
async function respond(state: FakeCouchState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    await handleRequest(state, req, res);
  } catch (error) {
    console.error('fake-couch: handler failed', error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'fake_couch_internal', reason: error instanceof Error ? error.message : String(error) }));
  }
}
