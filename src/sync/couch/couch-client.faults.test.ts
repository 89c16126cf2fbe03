import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCouch, type FakeCouch } from '../../../tests/fake-couch/index.ts';
import { CouchClient, type CouchConfig } from './couch-client.ts';
import { CouchError } from './couch-error.ts';

// Against tests/fake-couch: only what pouchdb-server cannot do (the rest is in couch-client.test.ts).
let couch: FakeCouch;
let databases = 0;

beforeAll(async () => {
  couch = await startFakeCouch();
});

afterAll(async () => {
  await couch.close();
});

function freshClient(overrides: Partial<CouchConfig> = {}): { client: CouchClient; database: string } {
  const database = `faults-${++databases}`;
  couch.createDatabase(database);
  return { client: new CouchClient({ serverUrl: couch.url, database, username: 'alice', password: 'pw', ...overrides }), database };
}

async function failureOf(promise: Promise<unknown>): Promise<CouchError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof CouchError)) throw new Error(`expected a CouchError, got ${String(outcome)}`);
  return outcome;
}

describe('CouchClient against a cluster’s answers and a failing server (fake-couch)', () => {
  it('a create answered 202 is created but not yet accepted by a quorum', async () => {
    const { client } = freshClient();
    couch.answerCreatesWith202();

    const first = await client.createDocument('decision', { by: 'phone' });
    const next = await client.createDocument('other', {});

    expect(first).toEqual({ outcome: 'created', rev: expect.stringMatching(/^1-/), accepted: true });
    expect(next).toEqual({ outcome: 'created', rev: expect.stringMatching(/^1-/), accepted: false });
  });

  it('shows a stored conflict with conflicts=true, and reads the losing revision by its rev', async () => {
    const { client, database } = freshClient();
    const created = await client.createDocument('decision', { by: 'laptop' });
    if (created.outcome !== 'created') throw new Error('not created');
    const loser = couch.storeConflict(database, 'decision', { by: 'phone' }, { wins: false });

    const plain = await client.getDocument('decision');
    const withConflicts = await client.getDocument('decision', { conflicts: true });
    const losing = await client.getDocument('decision', { rev: loser });

    expect(plain).toEqual({ _id: 'decision', _rev: created.rev, by: 'laptop' });
    expect(withConflicts).toEqual({ _id: 'decision', _rev: created.rev, by: 'laptop', _conflicts: [loser] });
    expect(losing).toEqual({ _id: 'decision', _rev: loser, by: 'phone' });
  });

  it('passes a replayed old revision in _changes through as the server sent it, seq opaque', async () => {
    const { client, database } = freshClient();
    const created = await client.createDocument('doc', { n: 1 });
    if (created.outcome !== 'created') throw new Error('not created');
    const updated = await client.putDocument('doc', created.rev, { n: 2 });
    const checkpoint = (await client.changes({ feed: 'normal' })).lastSeq;
    couch.replayRevision(database, 'doc', created.rev);

    const replayed = await client.changes({ feed: 'normal', since: checkpoint, includeDocs: true });

    expect(replayed.results).toEqual([{ id: 'doc', seq: replayed.lastSeq, rev: created.rev, doc: { _id: 'doc', _rev: created.rev, n: 1 } }]);
    expect(replayed.lastSeq).toMatch(/^\d+-g1AAAA/);
    expect(await client.getDocument('doc')).toMatchObject({ _rev: updated.rev, n: 2 });
    // The opaque string goes back as given.
    expect(couch.requests.at(-2)?.query.since).toBe(checkpoint);
  });

  it('reports pending changes after a page, and resumes from the string seq it was given', async () => {
    const { client } = freshClient();
    await client.bulkDocs([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }]);

    const page = await client.changes({ feed: 'normal', limit: 2 });
    const rest = await client.changes({ feed: 'normal', since: page.lastSeq });

    expect(page).toMatchObject({ pending: 1, results: [{ id: 'a' }, { id: 'b' }] });
    expect(rest).toMatchObject({ pending: 0, results: [{ id: 'c' }] });
  });

  it('ends a dropped longpoll (socket open, no answer) as a timeout instead of hanging, and the next poll works', async () => {
    const { client } = freshClient();
    couch.dropLongpolls();

    const started = Date.now();
    const dropped = await failureOf(client.changes({ feed: 'longpoll', since: '0', timeoutMs: 1_000 }));
    const waited = Date.now() - started;
    const after = client.changes({ feed: 'longpoll', since: '0', timeoutMs: 5_000 });
    await client.createDocument('late', {});

    expect(dropped).toMatchObject({ kind: 'timeout', message: 'The sync server stopped answering in the middle of a request.' });
    expect(waited).toBeGreaterThanOrEqual(8_000);
    expect(waited).toBeLessThan(12_000);
    expect((await after).results.map((change) => change.id)).toEqual(['late']);
  }, 20_000);

  it('ends a longpoll at once when its signal aborts, as aborted', async () => {
    const { client } = freshClient();
    couch.dropLongpolls();
    const controller = new AbortController();

    const poll = failureOf(client.changes({ feed: 'longpoll', since: '0', signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);

    expect(await poll).toMatchObject({ kind: 'aborted' });
  });

  it('says server, with the status, for a 500', async () => {
    const { client } = freshClient();
    couch.failNext(1, { status: 500 });

    const failed = await failureOf(client.databaseInfo());

    expect(failed).toMatchObject({ kind: 'server', status: 500, detail: 'unknown_error: fake-couch: scripted failure' });
    expect(failed.message).toBe('The sync server failed to answer the request (HTTP 500). Try again later; its log says why.');
    expect(await client.databaseInfo()).toMatchObject({ docCount: 0 });
  });

  it('a 500 on a create is a server failure, never taken for a win or a loss', async () => {
    const { client } = freshClient();
    couch.failNext(1, { status: 503, matches: (request) => request.method === 'PUT' });

    expect(await failureOf(client.createDocument('decision', {}))).toMatchObject({ kind: 'server', status: 503 });
  });

  it('says forbidden for a 403', async () => {
    const { client } = freshClient();
    couch.failNext(1, { status: 403 });

    expect(await failureOf(client.allDocs({}))).toMatchObject({ kind: 'forbidden', status: 403 });
  });

  it('says forbidden, not a wrong password, when only a server admin may create the database', async () => {
    const { client } = freshClient();
    couch.failNext(1, { status: 401, error: 'unauthorized', reason: 'You are not a server admin.' });
    couch.failNext(1, { status: 401, error: 'unauthorized', reason: 'Name or password is incorrect.' });

    const notAdmin = await failureOf(client.createDatabase());
    const wrongPassword = await failureOf(client.createDatabase());

    expect(notAdmin).toMatchObject({ kind: 'forbidden', status: 401, message: expect.stringContaining('Only a server admin can create a database') });
    expect(wrongPassword).toMatchObject({ kind: 'unauthorized', status: 401 });
  });

  it('sends the database name and ids percent-encoded', async () => {
    couch.createDatabase('team/pausepoint');
    const client = new CouchClient({ serverUrl: `${couch.url}/`, database: 'team/pausepoint', username: '', password: '' });

    await client.createDocument('a b/c', { n: 1 });

    expect(couch.database('team/pausepoint').read('a b/c')).toMatchObject({ n: 1 });
    expect(couch.requests.at(-1)?.headers.authorization).toBeUndefined();
  });
});

describe('CouchClient over a fetch that answers like something else', () => {
  const answering = (response: () => Response): typeof fetch => () => Promise.resolve(response());

  it('says bad_response for a 200 that is not JSON (a proxy’s page)', async () => {
    const client = new CouchClient({ serverUrl: 'https://couch.example', database: 'db', username: '', password: '', fetch: answering(() => new Response('<html>hello</html>', { status: 200 })) });

    expect(await failureOf(client.databaseInfo())).toMatchObject({ kind: 'bad_response', status: 200 });
  });

  it('says bad_response for JSON of the wrong shape', async () => {
    const client = new CouchClient({
      serverUrl: 'https://couch.example',
      database: 'db',
      username: '',
      password: '',
      fetch: answering(() => Response.json({ results: 'nope', last_seq: 1 })),
    });

    expect(await failureOf(client.changes({ feed: 'normal' }))).toMatchObject({ kind: 'bad_response' });
  });

  it('says server for a proxy’s 502 page', async () => {
    const client = new CouchClient({ serverUrl: 'https://couch.example', database: 'db', username: '', password: '', fetch: answering(() => new Response('Bad gateway', { status: 502 })) });

    expect(await failureOf(client.databaseInfo())).toMatchObject({ kind: 'server', status: 502 });
  });

  it('says cors when the request fails but a no-cors probe of the server resolves, as a browser shows a CORS refusal', async () => {
    const probes: RequestInit[] = [];
    const browserRefusingCors: typeof fetch = (_input, init) => {
      if (init?.mode === 'no-cors') {
        probes.push(init);
        return Promise.resolve(new Response(null, { status: 200 }));
      }
      return Promise.reject(new TypeError('Failed to fetch'));
    };
    const client = new CouchClient({ serverUrl: 'https://couch.example/', database: 'db', username: 'alice', password: 'pw', fetch: browserRefusingCors });

    const refused = await failureOf(client.databaseInfo());

    expect(refused).toMatchObject({ kind: 'cors' });
    expect(refused.message).toContain('CORS');
    expect(probes).toHaveLength(1);
    expect(probes[0]).toMatchObject({ credentials: 'omit' });
    expect(new Headers(probes[0]?.headers).has('authorization')).toBe(false);
  });

  // A fetch whose body (or answer) ignores the abort, as Node 20's did now and then when a
  // chunk arrived just as the poll ended: the client must end the request all the same.
  const stalling = (firstChunk: string | undefined): typeof fetch => () =>
    firstChunk === undefined
      ? new Promise<Response>(() => undefined)
      : Promise.resolve(new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode(firstChunk)) })));

  it('ends a quiet longpoll whose body ignores the abort, at the checkpoint', async () => {
    const client = new CouchClient({ serverUrl: 'https://couch.example', database: 'db', username: '', password: '', fetch: stalling('{"results":[\n') });

    expect(await client.changes({ feed: 'longpoll', since: '7-abc', timeoutMs: 200 })).toEqual({ results: [], lastSeq: '7-abc' });
  });

  it('ends an ordinary request whose body stalls, or whose answer never comes, as a timeout', async () => {
    const stalledBody = new CouchClient({ serverUrl: 'https://couch.example', database: 'db', username: '', password: '', timeoutMs: 200, fetch: stalling('{"doc_count":') });
    const noAnswer = new CouchClient({ serverUrl: 'https://couch.example', database: 'db', username: '', password: '', timeoutMs: 200, fetch: stalling(undefined) });

    expect(await failureOf(stalledBody.databaseInfo())).toMatchObject({ kind: 'timeout' });
    expect(await failureOf(noAnswer.databaseInfo())).toMatchObject({ kind: 'timeout' });
  });

  it('says unreachable when the no-cors probe fails too', async () => {
    const offline: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const client = new CouchClient({ serverUrl: 'https://couch.example', database: 'db', username: '', password: '', fetch: offline });

    expect(await failureOf(client.databaseInfo())).toMatchObject({ kind: 'unreachable', message: expect.stringContaining('did not answer') });
  });
});
