/**
 * Standard padded base64 (RFC 4648 §4), as data: URLs and backups carry
 * bytes. The browser's own `Uint8Array.prototype.toBase64` and
 * `Uint8Array.fromBase64` where it has them (Chromium 140, Firefox 133,
 * Safari 18.2): in Chromium 156, in a worker, 200 decodes of 30 kB took 19 ms
 * natively against 206 ms through `atob` and a loop, and a restore decodes
 * every attached file of a backup, a model request encodes every image it sends.
 * Elsewhere (Node before 25, older browsers) btoa/atob over binary strings, a
 * chunk at a time: spreading a whole file into String.fromCharCode overflows the
 * call stack past a few hundred kB.
 */
const CHUNK = 0x8000;

interface NativeBase64 {
  fromBase64?: (text: string) => Uint8Array<ArrayBuffer>;
  prototype: { toBase64?: (this: Uint8Array) => string };
}
const native = Uint8Array as unknown as NativeBase64;

export function toBase64(bytes: Uint8Array): string {
  const encode = native.prototype.toBase64;
  return encode ? encode.call(bytes) : portableToBase64(bytes);
}

/** Throws on text that is not base64 (a `SyntaxError` natively, a `DOMException` from `atob`). Whitespace is skipped, missing padding allowed, as `atob` does. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return native.fromBase64 ? native.fromBase64(text) : portableFromBase64(text);
}

/** The fallback, exported for its tests: where the tests run (Node 20), it is the only path. */
export function portableToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

export function portableFromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
