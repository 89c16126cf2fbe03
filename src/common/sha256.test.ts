import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from './base64.ts';
import { sha256Hex } from './sha256.ts';

describe('sha256Hex', () => {
  it('gives the known answers for "" and "abc" (FIPS 180-2)', async () => {
    expect(await sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('base64', () => {
  it('round-trips bytes longer than one chunk, with the standard alphabet and padding', () => {
    const bytes = Uint8Array.from({ length: 100_001 }, (_, i) => (i * 7) % 256);
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    expect(toBase64(new Uint8Array([0xfb, 0xff]))).toBe('+/8=');
  });

  it('refuses text that is not base64', () => {
    expect(() => fromBase64('not base64!')).toThrow();
  });
});
