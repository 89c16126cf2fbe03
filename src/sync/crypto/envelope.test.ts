import { createCipheriv, createDecipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { EnvelopeError } from './crypto-errors.ts';
import { deriveSyncKeys, SEAL_INFO } from './data-key.ts';
import type { Envelope } from './envelope.ts';
import { openDocument, sealDocument } from './envelope.ts';
import { flipped, KNOWN_DATA_KEY, KNOWN_IV, nodeHkdf } from './testing/known-answer.ts';

const HERE = { database: 'pausepoint', docId: 'abc' };
const keys = () => deriveSyncKeys(KNOWN_DATA_KEY);

async function refusal(promise: Promise<unknown>): Promise<EnvelopeError['reason']> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof EnvelopeError)) throw new Error(`expected an EnvelopeError, got ${String(error)}`);
  return error.reason;
}

/** AES-256-GCM by Node with the seal key's bytes: the independent computation. */
function nodeSeal(plaintext: Uint8Array | string, additionalData: string): Envelope {
  const cipher = createCipheriv('aes-256-gcm', nodeHkdf(KNOWN_DATA_KEY, SEAL_INFO), KNOWN_IV);
  cipher.setAAD(Buffer.from(additionalData, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { v: 1, iv: toBase64Url(KNOWN_IV), ct: toBase64Url(ct) };
}

describe('sealDocument', () => {
  it('gives the known envelope: AES-256-GCM of the JSON, additional data `database\\ndocId`', async () => {
    const envelope = await sealDocument(await keys(), HERE, { hello: 'wörld' }, KNOWN_IV);
    expect(envelope).toEqual({ v: 1, iv: 'oKGio6Slpqeoqaqr', ct: 'fmyWcVVPuDNkbBWCx-21yQWXtc3DQFfQIspq3tfqQ22t4Q' });
    expect(envelope).toEqual(nodeSeal('{"hello":"wörld"}', 'pausepoint\nabc'));

    const decipher = createDecipheriv('aes-256-gcm', nodeHkdf(KNOWN_DATA_KEY, SEAL_INFO), KNOWN_IV);
    const ct = fromBase64Url(envelope.ct);
    decipher.setAAD(Buffer.from('pausepoint\nabc'));
    decipher.setAuthTag(ct.subarray(-16));
    expect(Buffer.concat([decipher.update(ct.subarray(0, -16)), decipher.final()]).toString('utf8')).toBe('{"hello":"wörld"}');
  });

  it('uses a fresh 96-bit IV each time', async () => {
    const k = await keys();
    const envelopes = await Promise.all(Array.from({ length: 20 }, () => sealDocument(k, HERE, { same: true })));
    expect(new Set(envelopes.map((envelope) => envelope.iv)).size).toBe(20);
    expect(new Set(envelopes.map((envelope) => envelope.ct)).size).toBe(20);
    for (const envelope of envelopes) expect(fromBase64Url(envelope.iv).length).toBe(12);
  });

  it('refuses what is not JSON', async () => {
    const k = await keys();
    expect(await refusal(sealDocument(k, HERE, undefined))).toBe('json');
    expect(await refusal(sealDocument(k, HERE, 1n))).toBe('json');
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(await refusal(sealDocument(k, HERE, cyclic))).toBe('json');
  });

  it('refuses a database name with a newline, which would make the additional data ambiguous', async () => {
    await expect(sealDocument(await keys(), { database: 'a\nb', docId: 'c' }, {})).rejects.toThrow(RangeError);
  });
});

describe('openDocument', () => {
  it('opens what sealDocument sealed, Unicode and nesting intact', async () => {
    const k = await keys();
    const record = { v: 1, title: 'Café ☕ — 日本語 🎉', nested: { list: [1, null, true, 'x'], empty: {} }, n: -0.5 };
    expect(await openDocument(k, HERE, await sealDocument(k, HERE, record))).toEqual(record);
    expect(await openDocument(k, HERE, await sealDocument(k, HERE, null))).toBeNull();
    expect(await openDocument(k, HERE, nodeSeal('{"hello":"wörld"}', 'pausepoint\nabc'))).toEqual({ hello: 'wörld' });
  });

  it('opens the envelope as the server returns it, inside a CouchDB document', async () => {
    const k = await keys();
    const envelope = await sealDocument(k, HERE, { secret: 1 });
    expect(await openDocument(k, HERE, { _id: HERE.docId, _rev: '1-967a00dff5e02add41819138abb3284d', ...envelope })).toEqual({ secret: 1 });
  });

  it('refuses a ciphertext moved to another document id or database', async () => {
    const k = await keys();
    const envelope = await sealDocument(k, HERE, { secret: 1 });
    expect(await refusal(openDocument(k, { ...HERE, docId: 'abd' }, envelope))).toBe('decrypt');
    expect(await refusal(openDocument(k, { ...HERE, database: 'other' }, envelope))).toBe('decrypt');
    // The separator is part of the additional data: the same characters split elsewhere name another place.
    expect(await refusal(openDocument(k, { database: 'pausepoin', docId: 'tabc' }, envelope))).toBe('decrypt');
  });

  it('refuses a flipped bit anywhere in the ciphertext, its tag or its IV', async () => {
    const k = await keys();
    const envelope = await sealDocument(k, HERE, { secret: 1 });
    const ct = fromBase64Url(envelope.ct);
    for (const index of [0, ct.length - 17, ct.length - 16, ct.length - 1]) {
      expect(await refusal(openDocument(k, HERE, { ...envelope, ct: toBase64Url(flipped(ct, index)) }))).toBe('decrypt');
    }
    expect(await refusal(openDocument(k, HERE, { ...envelope, iv: toBase64Url(flipped(fromBase64Url(envelope.iv), 5)) }))).toBe('decrypt');
  });

  it('refuses a document sealed under another data key', async () => {
    const envelope = await sealDocument(await keys(), HERE, { secret: 1 });
    const other = await deriveSyncKeys(KNOWN_DATA_KEY.map((byte) => byte ^ 0x80));
    expect(await refusal(openDocument(other, HERE, envelope))).toBe('decrypt');
  });

  it('refuses anything that is not an envelope, before decrypting', async () => {
    const k = await keys();
    const good = await sealDocument(k, HERE, { secret: 1 });
    const bad: unknown[] = [
      null,
      'text',
      {},
      { ...good, v: 2 },
      { iv: good.iv, ct: good.ct },
      { ...good, iv: toBase64Url(new Uint8Array(16)) },
      { ...good, ct: toBase64Url(new Uint8Array(15)) },
      { ...good, ct: `${good.ct}=` },
      { ...good, ct: Buffer.from(fromBase64Url(good.ct)).toString('base64').replace(/=+$/, '').replace(/^./, '+') },
    ];
    for (const envelope of bad) expect(await refusal(openDocument(k, HERE, envelope)), JSON.stringify(envelope)).toBe('malformed');
  });

  it('refuses authentic bytes that are not UTF-8 JSON', async () => {
    const k = await keys();
    expect(await refusal(openDocument(k, HERE, nodeSeal('not json', 'pausepoint\nabc')))).toBe('json');
    expect(await refusal(openDocument(k, HERE, nodeSeal(new Uint8Array([0x22, 0xff, 0x22]), 'pausepoint\nabc')))).toBe('json');
  });
});
