import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { base64UrlField } from './base64url-field.ts';
import { Base64UrlError } from './crypto-errors.ts';

const ascii = (text: string) => new TextEncoder().encode(text);

describe('toBase64Url and fromBase64Url', () => {
  it('give the RFC 4648 §10 vectors in the URL alphabet, unpadded', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg'],
      ['fo', 'Zm8'],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg'],
      ['fooba', 'Zm9vYmE'],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(toBase64Url(ascii(plain))).toBe(encoded);
      expect(fromBase64Url(encoded)).toEqual(ascii(plain));
    }
    // The two symbols where base64url differs from base64: 62 is `-`, 63 is `_`.
    expect(toBase64Url(new Uint8Array([0xfb, 0xff, 0xbf]))).toBe('-_-_');
  });

  it("agree with Node's own base64url on every length from 0 to 99", () => {
    for (let length = 0; length < 100; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      const encoded = toBase64Url(bytes);
      expect(encoded).toBe(Buffer.from(bytes).toString('base64url'));
      expect(fromBase64Url(encoded)).toEqual(bytes);
    }
  });

  it("agree with Node's on a large envelope's worth of bytes", () => {
    const bytes = new Uint8Array(300_002);
    for (let offset = 0; offset < bytes.length; offset += 65_536) crypto.getRandomValues(bytes.subarray(offset, offset + 65_536));
    const encoded = toBase64Url(bytes);
    expect(encoded).toBe(Buffer.from(bytes).toString('base64url'));
    expect(fromBase64Url(encoded)).toEqual(bytes);
  });

  it('encode a view of a larger buffer by its own bytes only', () => {
    const buffer = Uint8Array.from({ length: 10 }, (_, index) => index);
    expect(toBase64Url(buffer.subarray(3, 6))).toBe(Buffer.from([3, 4, 5]).toString('base64url'));
  });

  it('refuse every text that is not canonical unpadded base64url', () => {
    for (const bad of ['Zg==', 'Zm8=', 'Z', 'Zm9vY', 'Zh', 'Zm9=', 'Zm+v', 'Zm/v', ' Zm9v', 'Zm9v\n', 'Zm9vé', 'Zm\u0000v']) {
      expect(() => fromBase64Url(bad), bad).toThrow(Base64UrlError);
    }
  });
});

describe('base64UrlField', () => {
  it('accepts base64url of exactly the bytes asked for, and nothing else', () => {
    const twelve = base64UrlField(12);
    expect(twelve.safeParse(toBase64Url(new Uint8Array(12))).success).toBe(true);
    expect(twelve.safeParse(toBase64Url(new Uint8Array(11))).success).toBe(false);
    expect(twelve.safeParse(toBase64Url(new Uint8Array(13))).success).toBe(false);
    expect(twelve.safeParse('AAAAAAAAAAAAAAA=').success).toBe(false);
    expect(twelve.safeParse('AAAAAAAAAAAAAAA+').success).toBe(false);
    expect(twelve.safeParse(12).success).toBe(false);
  });

  it('accepts a range of lengths', () => {
    const range = base64UrlField({ min: 16, max: 20 });
    for (const length of [15, 16, 18, 20, 21]) {
      expect(range.safeParse(toBase64Url(new Uint8Array(length))).success, String(length)).toBe(length >= 16 && length <= 20);
    }
  });
});
