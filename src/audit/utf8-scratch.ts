const encoder = new TextEncoder();

/** Texts longer than this get a buffer of their own, so one huge entry does not keep a huge buffer alive. */
const KEPT_CHARS = 64 * 1024;
const scratch = new Uint8Array(3 * KEPT_CHARS);

/**
 * The text's UTF-8 bytes in one buffer reused across calls: a view that is
 * valid only until the next call. The audit hashes consume their input before
 * they return (noble's sha256 synchronously; WebCrypto's `digest` copies it
 * before it returns its promise), and an export hashes 100,000 entries: a new
 * buffer each (TextEncoder.encode, and noble's utf8ToBytes copies that once
 * more and zero-fills the first) was most of the hash's cost beside the
 * compression itself, in Chromium and Node alike.
 */
export function utf8Scratch(text: string): Uint8Array<ArrayBuffer> {
  // UTF-8 needs at most 3 bytes per UTF-16 code unit, so encodeInto always writes the whole text.
  const buffer = text.length <= KEPT_CHARS ? scratch : new Uint8Array(text.length * 3);
  const { written } = encoder.encodeInto(text, buffer);
  return buffer.subarray(0, written);
}
