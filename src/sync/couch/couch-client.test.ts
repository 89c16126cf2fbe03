import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPouchdbServer, type PouchdbServer } from '../../../tests/couch/pouchdb-server.ts';
import { CouchClient, type CouchConfig } from './couch-client.ts';
import { CouchError } from './couch-error.ts';

// Against a real pouchdb-server (tests/couch): the answers are a CouchDB's, not ours.
let server: PouchdbServer;
const alice = { username: 'alice', password: 'correct horse' };
let databases = 0;

beforeAll(async () => {
  server = await startPouchdbServer();
}, 30_000);

afterAll(async () => {
  await server.close();
});

/** A database of its own for each test, Alice its only member. */
async function freshDatabase(): Promise<string> {
  const name = `db-${++databases}`;
  await server.createDatabase(name, alice);
  return name;
}

function clientOf(database: string, overrides: Partial<CouchConfig> = {}): CouchClient {
  return new CouchClient({ serverUrl: server.url, database, ...alice, ...overrides });
}

/** A port that was free a moment ago and that nothing listens on now. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

async function failureOf(promise: Promise<unknown>): Promise<CouchError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof CouchError)) throw new Error(`expected a CouchError, got ${String(outcome)}`);
  return outcome;
}

describe('CouchClient against pouchdb-server', () => {
  it('creates a document once: 201 for the first create of an id, conflict for the second', async () => {
    const database = await freshDatabase();
    const laptop = clientOf(database);
    const phone = clientOf(database);

    const first = await laptop.createDocument('decision-1', { by: 'laptop' });
    const second = await phone.createDocument('decision-1', { by: 'phone' });

    expect(first).toEqual({ outcome: 'created', rev: expect.stringMatching(/^1-/), accepted: false });
    expect(second).toEqual({ outcome: 'conflict' });
    expect(await phone.getDocument('decision-1')).toMatchObject({ _id: 'decision-1', by: 'laptop' });
  });

  it('refuses a put with a stale _rev as a conflict, and takes the current one', async () => {
    const client = clientOf(await freshDatabase());
    const created = await client.createDocument('doc', { n: 1 });
    if (created.outcome !== 'created') throw new Error('not created');
    const second = await client.putDocument('doc', created.rev, { n: 2 });

    const stale = await failureOf(client.putDocument('doc', created.rev, { n: 3 }));
    const third = await client.putDocument('doc', second.rev, { n: 3 });

    expect(stale).toMatchObject({ kind: 'conflict', status: 409 });
    expect(third.rev).toMatch(/^3-/);
    expect(await client.getDocument('doc')).toMatchObject({ n: 3, _rev: third.rev });
  });

  it('refuses a request without credentials or with a wrong password (401), and answers Basic auth of a member', async () => {
    const database = await freshDatabase();

    const anonymous = await failureOf(clientOf(database, { username: '', password: '' }).databaseInfo());
    const wrong = await failureOf(clientOf(database, { password: 'wrong' }).databaseInfo());
    const info = await clientOf(database).databaseInfo();

    expect(anonymous).toMatchObject({ kind: 'unauthorized', status: 401, message: 'The sync server refused the user name or password.' });
    expect(wrong).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(info).toEqual({ docCount: 0, updateSeq: '0' });
  });

  it('says no_database for a missing database, and createDatabase makes it (twice is fine)', async () => {
    const admin = clientOf('not-yet', server.admin);

    const missing = await failureOf(admin.databaseInfo());
    const missingDoc = await failureOf(admin.getDocument('anything'));
    await admin.createDatabase();
    await admin.createDatabase();

    expect(missing).toMatchObject({ kind: 'no_database', status: 404 });
    expect(missingDoc).toMatchObject({ kind: 'no_database', status: 404 });
    expect(await admin.databaseInfo()).toEqual({ docCount: 0, updateSeq: '0' });
    expect(await admin.getDocument('anything')).toBeUndefined();
  });

  it('a longpoll waits and answers when another client writes', async () => {
    const database = await freshDatabase();
    const follower = clientOf(database);
    const writer = clientOf(database);
    const { updateSeq } = await follower.databaseInfo();

    const started = Date.now();
    const poll = follower.changes({ feed: 'longpoll', since: updateSeq, includeDocs: true, timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await writer.createDocument('written-later', { text: 'hello' });
    const changes = await poll;

    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(changes.results).toEqual([
      { id: 'written-later', seq: expect.any(String), rev: expect.stringMatching(/^1-/), doc: expect.objectContaining({ _id: 'written-later', text: 'hello' }) },
    ]);
    expect(changes.lastSeq).toBe(changes.results[0]?.seq);
  });

  it('a longpoll with nothing new ends quietly after its timeout, at the checkpoint it started from', async () => {
    // pouchdb-server ignores `timeout` (and CouchDB does once a heartbeat is asked): the client ends the poll.
    const client = clientOf(await freshDatabase());
    await client.createDocument('a', {});
    const { lastSeq } = await client.changes({ feed: 'normal' });

    const started = Date.now();
    const quiet = await client.changes({ feed: 'longpoll', since: lastSeq, timeoutMs: 600, heartbeatMs: 200 });

    expect(quiet).toEqual({ results: [], lastSeq });
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a quiet longpoll is not taken for a dead one between pouchdb-server’s heartbeats, whatever heartbeat was asked', async () => {
    // pouchdb-server beats every 6 s whatever `heartbeat` says; a 200 ms beat must not mean 2.2 s of silence is death.
    const client = clientOf(await freshDatabase());

    const quiet = await client.changes({ feed: 'longpoll', since: '0', timeoutMs: 5_000, heartbeatMs: 200 });

    expect(quiet).toEqual({ results: [], lastSeq: '0' });
  }, 15_000);

  it('resumes from a checkpoint: since = the last page’s lastSeq gives the rest, and each seq is a string', async () => {
    const client = clientOf(await freshDatabase());
    for (const id of ['a', 'b', 'c']) await client.createDocument(id, { id });

    const first = await client.changes({ feed: 'normal', limit: 2 });
    const rest = await client.changes({ feed: 'normal', since: first.lastSeq });
    const none = await client.changes({ feed: 'normal', since: rest.lastSeq });

    expect(first.results.map((change) => change.id)).toEqual(['a', 'b']);
    expect(rest.results.map((change) => change.id)).toEqual(['c']);
    expect(none.results).toEqual([]);
    for (const change of [...first.results, ...rest.results]) expect(typeof change.seq).toBe('string');
    expect(none.lastSeq).toBe(rest.lastSeq);
  });

  it('bulkDocs stores each document and reports a conflict per row', async () => {
    const client = clientOf(await freshDatabase());
    await client.createDocument('taken', { n: 0 });

    const rows = await client.bulkDocs([{ _id: 'one', n: 1 }, { _id: 'taken', n: 2 }, { _id: 'two', n: 3 }]);

    expect(rows).toEqual([
      { id: 'one', rev: expect.stringMatching(/^1-/) },
      { id: 'taken', error: 'conflict', reason: expect.any(String) },
      { id: 'two', rev: expect.stringMatching(/^1-/) },
    ]);
    expect((await client.databaseInfo()).docCount).toBe(3);
  });

  it('allDocs with keys gives the documents asked for, leaves out missing ones and marks deleted ones', async () => {
    const client = clientOf(await freshDatabase());
    await client.bulkDocs([{ _id: 'a', n: 1 }, { _id: 'b', n: 2 }, { _id: 'c', n: 3 }]);
    const c = await client.getDocument('c');
    await client.putDocument('c', c?._rev, { _deleted: true });

    const asked = await client.allDocs({ keys: ['b', 'missing', 'a', 'c'], includeDocs: true });
    const page = await client.allDocs({ startKey: 'b', limit: 1 });

    expect(asked.rows).toEqual([
      { id: 'b', rev: expect.stringMatching(/^1-/), doc: expect.objectContaining({ _id: 'b', n: 2 }) },
      { id: 'a', rev: expect.stringMatching(/^1-/), doc: expect.objectContaining({ _id: 'a', n: 1 }) },
      { id: 'c', rev: expect.stringMatching(/^2-/), deleted: true },
    ]);
    expect(page.rows).toEqual([{ id: 'b', rev: expect.stringMatching(/^1-/) }]);
    expect(page.totalRows).toBe(2);
  });

  it('getDocument: a missing or deleted document is undefined, not an error', async () => {
    const client = clientOf(await freshDatabase());
    const created = await client.createDocument('gone', {});
    if (created.outcome !== 'created') throw new Error('not created');
    await client.putDocument('gone', created.rev, { _deleted: true });

    expect(await client.getDocument('never')).toBeUndefined();
    expect(await client.getDocument('gone')).toBeUndefined();
  });

  it('sends every request without cookies, refusing redirects, asking for JSON, with Basic auth', async () => {
    const seen: Array<{ url: string; init: RequestInit | undefined }> = [];
    const recording: typeof fetch = (input, init) => {
      seen.push({ url: String(input), init });
      return fetch(input, init);
    };
    const client = clientOf(await freshDatabase(), { fetch: recording });

    await client.createDocument('x', { n: 1 });
    await client.databaseInfo();

    expect(seen).toHaveLength(2);
    for (const { init } of seen) {
      expect(init).toMatchObject({ credentials: 'omit', redirect: 'error' });
      const headers = new Headers(init?.headers);
      expect(headers.get('accept')).toBe('application/json');
      expect(headers.get('authorization')).toBe(`Basic ${Buffer.from('alice:correct horse').toString('base64')}`);
    }
    expect(new Headers(seen[0]?.init?.headers).get('content-type')).toBe('application/json');
    expect(new Headers(seen[1]?.init?.headers).has('content-type')).toBe(false);
  });

  it('ends a longpoll as unreachable at once when the server goes away mid-feed', async () => {
    const restarting = await startPouchdbServer();
    try {
      await restarting.createDatabase('db');
      const client = new CouchClient({ serverUrl: restarting.url, database: 'db', ...restarting.admin });
      const poll = failureOf(client.changes({ feed: 'longpoll', since: '0', timeoutMs: 30_000 }));
      await new Promise((resolve) => setTimeout(resolve, 200));

      const stoppedAt = Date.now();
      await restarting.close();

      expect(await poll).toMatchObject({ kind: 'unreachable' });
      expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    } finally {
      await restarting.close();
    }
  }, 20_000);

  it('says unreachable when nothing listens at the address', async () => {
    const nobody = new CouchClient({ serverUrl: `http://127.0.0.1:${await closedPort()}`, database: 'x', username: '', password: '' });

    expect(await nobody.probe()).toMatchObject({ kind: 'unreachable' });
    expect(await clientOf(await freshDatabase()).probe()).toBe('ok');
  });
});
