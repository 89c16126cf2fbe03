import { describe, expect, it } from 'vitest';
import { fromBase64, portableFromBase64, portableToBase64, toBase64 } from './base64.ts';

const bytes = (...values: number[]) => new Uint8Array(values);

describe.each([
  ['the runtime’s', toBase64, fromBase64],
  ['the portable', portableToBase64, portableFromBase64],
])('%s base64', (_, encode, decode) => {
  it('encodes RFC 4648’s test vectors, padded', () => {
    const text = ['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'];
    expect(text.map((t) => encode(new TextEncoder().encode(t)))).toEqual(['', 'Zg==', 'Zm8=', 'Zm9v', 'Zm9vYg==', 'Zm9vYmE=', 'Zm9vYmFy']);
  });

  it('decodes what it encodes, every byte value and a file past the call stack’s reach', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(decode(encode(all))).toEqual(all);
    const large = Uint8Array.from({ length: 700_001 }, (_, i) => (i * 31 + 7) & 255);
    const back = decode(encode(large));
    // Compared as one string: toEqual walks 700,000 elements one by one, for seconds.
    expect([back.length, Buffer.from(back).toString('hex')]).toEqual([large.length, Buffer.from(large).toString('hex')]);
  });

  it('skips whitespace and takes missing padding, as atob does', () => {
    expect(decode('Zm9v\nYmE')).toEqual(new TextEncoder().encode('fooba'));
    expect(decode('AP8')).toEqual(bytes(0, 255));
  });

  it('refuses text that is not base64', () => {
    expect(() => decode('not base64!')).toThrow();
    expect(() => decode('Zm9vY')).toThrow();
  });
});

it('the runtime’s encoding is the portable one', () => {
  const sample = Uint8Array.from({ length: 4099 }, (_, i) => (i * 131 + 17) & 255);
  expect(toBase64(sample)).toBe(portableToBase64(sample));
  expect(fromBase64(portableToBase64(sample))).toEqual(sample);
});
