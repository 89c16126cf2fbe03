import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCouch, type FakeCouch } from '../../tests/fake-couch/index.ts';
import { newDeviceIdentity, type DeviceIdentity } from '../identity/device-identity.ts';
import { CouchClient } from './couch/couch-client.ts';
import { deriveSyncKeys, newDataKey } from './crypto/data-key.ts';
import { sealDocument } from './crypto/envelope.ts';
import { wrapWithPassphrase } from './crypto/passphrase-key.ts';
import { passphraseStrength } from './passphrase/passphrase-strength.ts';
import { CHECK, PARAMS_ID, SetupRefused, setUpWithPassphrase, type ClientFor } from './sync-setup.ts';
import type { TurnOnSync } from './sync-control.ts';

/** Turning sync on with a passphrase: where its strength is refused, and where it is not. */
let couch: FakeCouch;
let count = 0;
let joining: { deviceId: string; identity: DeviceIdentity };
beforeAll(async () => {
  joining = { deviceId: 'laptop', identity: await newDeviceIdentity() };
  // zxcvbn's dictionaries load once (seconds on a busy machine, the thread held): before the server's keep-alive clock starts.
  await passphraseStrength('');
  couch = await startFakeCouch();
}, 60_000);
afterAll(() => couch.close());

const clientFor: ClientFor = (where) => new CouchClient(where);
const WEAK = 'password1234';
const STRONG = 'a long passphrase for the tests';

function form(database: string, passphrase: string, more: Partial<TurnOnSync> = {}): TurnOnSync {
  return { deviceName: 'Laptop', serverUrl: couch.url, database, username: 'ada', password: 'pw', passphrase, ...more };
}

async function refusalOf(setup: Promise<unknown>) {
  const error: unknown = await setup.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(SetupRefused);
  return (error as SetupRefused).refusal;
}

describe('a passphrase’s strength when turning sync on', { timeout: 60_000 }, () => {
  it('a first device’s weak passphrase is refused before anything is written: no parameters, no key', async () => {
    const name = `weak-${++count}`;
    couch.createDatabase(name);
    const refusal = await refusalOf(setUpWithPassphrase(form(name, WEAK), 0, clientFor, joining));
    expect(refusal.kind).toBe('weak_passphrase');
    expect(refusal.message).toMatch(/^This passphrase is too weak for a new sync database\. Too weak: one GPU offline guesses it in .+ Nothing was changed\.$/);
    expect(await clientFor(form(name, WEAK)).getDocument(PARAMS_ID)).toBeUndefined();
  });

  it('a database that does not exist yet is not created for a weak passphrase', async () => {
    const name = `missing-${++count}`;
    const refusal = await refusalOf(setUpWithPassphrase(form(name, WEAK, { createDatabase: true }), 0, clientFor, joining));
    expect(refusal.kind).toBe('weak_passphrase');
    await expect(clientFor(form(name, WEAK)).databaseInfo()).rejects.toMatchObject({ kind: 'no_database' });
  });

  it('a passphrase built from the form’s own user name and device name is weak', async () => {
    const name = `context-${++count}`;
    couch.createDatabase(name);
    const refusal = await refusalOf(setUpWithPassphrase(form(name, 'ada laptop', { username: 'ada', deviceName: 'laptop' }), 0, clientFor, joining));
    expect(refusal.kind).toBe('weak_passphrase');
  });

  it('a first device’s strong passphrase makes the database’s key', async () => {
    const name = `strong-${++count}`;
    couch.createDatabase(name);
    const setup = await setUpWithPassphrase(form(name, STRONG), 0, clientFor, joining);
    expect(setup.config.database).toBe(name);
    expect(await clientFor(form(name, STRONG)).getDocument(PARAMS_ID)).toMatchObject({ wrapped: expect.any(Object) });
  });

  it('a later device opens a database whose key an older version wrapped under a weak passphrase: that passphrase is the database’s, not a choice', async () => {
    const name = `older-${++count}`;
    couch.createDatabase(name);
    const raw = newDataKey();
    const keys = await deriveSyncKeys(raw);
    await clientFor(form(name, WEAK)).createDocument(PARAMS_ID, { wrapped: await wrapWithPassphrase(raw, WEAK), check: await sealDocument(keys, { database: name, docId: PARAMS_ID }, CHECK) });
    const setup = await setUpWithPassphrase(form(name, WEAK), 0, clientFor, joining);
    expect(setup.config.database).toBe(name);
  });
});
