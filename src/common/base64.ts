/**
 * Standard padded base64 (RFC 4648 §4), as data: URLs and backups carry
 * bytes. btoa/atob over binary strings, a chunk at a time: spreading a whole
 * file into String.fromCharCode overflows the call stack past a few hundred kB.
 */
const CHUNK = 0x8000;

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

/** Throws a `DOMException` (InvalidCharacterError) on text that is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
