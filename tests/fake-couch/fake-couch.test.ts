import { afterEach, describe, expect, it } from 'vitest';
import { startFakeCouch, type FakeCouch } from './index.ts';

let couch: FakeCouch | undefined;

afterEach(async () => {
  await couch?.close();
  couch = undefined;
});

describe('fake-couch', () => {
  it('answers a preflight from a page’s origin as pouchdb-server does: origin echoed, credentials allowed, headers as asked', async () => {
    couch = await startFakeCouch();

    const preflight = await fetch(`${couch.url}/db/doc`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:4173', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization, content-type' },
    });

    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
  });

  it('keeps CouchDB’s compare-and-set: a second create of an id, or a stale rev, is a 409', async () => {
    couch = await startFakeCouch();
    couch.createDatabase('db');
    const put = (body: object) => fetch(`${couch?.url}/db/doc`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const first = await put({ n: 1 });
    const { rev } = (await first.json()) as { rev: string };
    const again = await put({ n: 2 });
    const next = await put({ n: 3, _rev: rev });
    const stale = await put({ n: 4, _rev: rev });

    expect([first.status, again.status, next.status, stale.status]).toEqual([201, 409, 201, 409]);
    expect(await stale.json()).toEqual({ error: 'conflict', reason: 'Document update conflict.' });
  });

  it('cuts a held longpoll on close, so a test’s afterAll never hangs', async () => {
    couch = await startFakeCouch();
    couch.createDatabase('db');
    couch.dropLongpolls();

    const held = fetch(`${couch.url}/db/_changes?feed=longpoll&since=0`).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await couch.close();

    expect(await held).toBe('cut');
  });
});
