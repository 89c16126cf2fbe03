import { hkdfSync } from 'node:crypto';

/**
 * The fixed inputs of the crypto's known-answer tests, and Node's own
 * (node:crypto, OpenSSL) derivation of the working keys' bytes, the
 * independent computation the WebCrypto results are checked against.
 * Tests only: imported by nothing that ships.
 */

/** The known-answer data key: bytes 0, 1, …, 31. */
export const KNOWN_DATA_KEY = Uint8Array.from({ length: 32 }, (_, index) => index);
export const KNOWN_IV = Uint8Array.from({ length: 12 }, (_, index) => 0xa0 + index);
export const KNOWN_SALT = Uint8Array.from({ length: 16 }, (_, index) => 0x10 + index);

/** HKDF-SHA-256 of a data key with our salt (32 zero bytes) and an info label, as Node computes it. */
export function nodeHkdf(raw: Uint8Array, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', raw, Buffer.alloc(32), info, 32));
}

/** A copy of the bytes with one bit flipped at `index`. */
export function flipped(bytes: Uint8Array, index: number): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes);
  copy[index]! ^= 1;
  return copy;
}
