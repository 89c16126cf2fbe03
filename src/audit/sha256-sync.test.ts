import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256.ts';
import { sha256HexSync } from './sha256-sync.ts';

describe('sha256HexSync', () => {
  it('gives the FIPS 180-4 test vectors', () => {
    expect(sha256HexSync('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256HexSync('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256HexSync('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('agrees with WebCrypto on every length around the block boundaries and on non-ASCII text', async () => {
    const texts: string[] = [];
    for (let length = 0; length <= 200; length++) texts.push('x'.repeat(length));
    texts.push('Décidé — 日本語 🎉 \u0000 "quoted"', '€'.repeat(1000), 'a'.repeat(70_000), '\ud83d'.repeat(3));
    for (const text of texts) expect(sha256HexSync(text)).toBe(await sha256Hex(text));
  });
});
