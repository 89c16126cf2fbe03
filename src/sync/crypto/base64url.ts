import { Base64UrlError } from './crypto-errors.ts';

/**
 * Unpadded base64url (RFC 4648 §5), the encoding of every binary field sync
 * stores or sends. Hand-written because the worker has no Buffer and
 * `Uint8Array.prototype.toBase64` is not in Node 20; btoa/atob would need a
 * binary string per field, and atob accepts padding and whitespace.
 *
 * Decoding is strict: one text per byte string. Padding, whitespace, the `+/`
 * alphabet, an impossible length or non-zero unused bits are refused, so a
 * stored field cannot be re-spelled into another text that decodes the same.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const CODES = new TextEncoder().encode(ALPHABET);
const VALUES = new Int8Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index++) VALUES[ALPHABET.charCodeAt(index)] = index;
const ascii = new TextDecoder();

export function toBase64Url(bytes: Uint8Array): string {
  // The text is written as ASCII bytes and decoded once: string concatenation per character was
  // 10-20 times slower on a large envelope, in V8 as in Node.
  const out = new Uint8Array(Math.ceil((bytes.length * 4) / 3));
  let written = 0;
  let index = 0;
  for (; index + 2 < bytes.length; index += 3) {
    const triple = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!;
    out[written++] = CODES[triple >> 18]!;
    out[written++] = CODES[(triple >> 12) & 63]!;
    out[written++] = CODES[(triple >> 6) & 63]!;
    out[written++] = CODES[triple & 63]!;
  }
  const rest = bytes.length - index;
  if (rest === 1) {
    const first = bytes[index]!;
    out[written++] = CODES[first >> 2]!;
    out[written++] = CODES[(first & 3) << 4]!;
  } else if (rest === 2) {
    const pair = (bytes[index]! << 8) | bytes[index + 1]!;
    out[written++] = CODES[pair >> 10]!;
    out[written++] = CODES[(pair >> 4) & 63]!;
    out[written++] = CODES[(pair & 15) << 2]!;
  }
  return ascii.decode(out.subarray(0, written));
}

/** Throws Base64UrlError on anything but canonical unpadded base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (typeof text !== 'string') throw new Base64UrlError('Expected base64url text.');
  if (text.length % 4 === 1) throw new Base64UrlError(`Base64url text cannot be ${text.length} characters long.`);
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let held = 0;
  let written = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const value = code < 128 ? VALUES[code]! : -1;
    if (value < 0) throw new Base64UrlError(`Not a base64url character at ${index}.`);
    bits = (bits << 6) | value;
    held += 6;
    if (held >= 8) {
      held -= 8;
      bytes[written++] = (bits >> held) & 255;
      bits &= (1 << held) - 1;
    }
  }
  // What is left over must be the zero bits that padded the last character.
  if (bits !== 0) throw new Base64UrlError('Base64url text with non-zero unused bits.');
  return bytes;
}
