import { describe, expect, it } from 'vitest';
import { pairingBlobFrom, pairingLink, PAIRING_TTL_MS } from './pairing-link.ts';

const BLOB = 'AQAAA-gQERITFBUWFxgZGhscHR4f_oKGio6Slpqeoqaqr';

describe('pairingLink', () => {
  it('puts the blob in the fragment of the app’s own address', () => {
    expect(pairingLink('https://pausepoint.example', BLOB)).toBe(`https://pausepoint.example/#pair=${BLOB}`);
    expect(pairingLink('http://127.0.0.1:4173', BLOB)).toBe(`http://127.0.0.1:4173/#pair=${BLOB}`);
    expect(pairingLink('https://pausepoint.example/', BLOB)).toBe(`https://pausepoint.example/#pair=${BLOB}`);
  });

  it('survives a URL parser: the fragment is read back as it was written, and is not part of what is requested', () => {
    const url = new URL(pairingLink('https://pausepoint.example', BLOB));
    expect(url.pathname).toBe('/');
    expect(url.search).toBe('');
    expect(pairingBlobFrom(url.hash)).toBe(BLOB);
  });
});

describe('pairingBlobFrom', () => {
  it('reads `#pair=…`, with or without its `#`', () => {
    expect(pairingBlobFrom(`#pair=${BLOB}`)).toBe(BLOB);
    expect(pairingBlobFrom(`pair=${BLOB}`)).toBe(BLOB);
  });

  it('ignores every other fragment', () => {
    for (const hash of ['', '#', '#pair=', '#/settings', '#pair', `#pairing=${BLOB}`, `#x=1&pair=${BLOB}`, `#pair=${BLOB}&x=1`, `#pair=${BLOB}=`, '#pair=a b', '#pair=a%20b', '#pair=a+b']) {
      expect(pairingBlobFrom(hash), hash).toBeUndefined();
    }
  });
});

describe('PAIRING_TTL_MS', () => {
  it('is 15 minutes', () => {
    expect(PAIRING_TTL_MS).toBe(900_000);
  });
});
