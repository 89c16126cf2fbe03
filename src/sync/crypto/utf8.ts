const encoder = new TextEncoder();
// fatal: a byte string that is not UTF-8 is refused, not repaired with U+FFFD into a different text.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Throws a TypeError on bytes that are not UTF-8. */
export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
