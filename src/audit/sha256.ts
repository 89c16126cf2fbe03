const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * One buffer reused for every call: `digest` copies its input before it returns
 * its promise (WebCrypto "get a copy of the bytes"), so the next call may
 * overwrite it. Saves an allocation per hashed entry on a 100,000-entry export.
 */
let scratch = new Uint8Array(64 * 1024);

/** SHA-256 of the text's UTF-8 bytes, as 64 lowercase hex digits. WebCrypto: browsers, workers and Node 20. */
export async function sha256Hex(text: string): Promise<string> {
  // UTF-8 needs at most 3 bytes per UTF-16 code unit.
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
  const { written } = encoder.encodeInto(text, scratch);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', scratch.subarray(0, written)));
  let hex = '';
  for (const byte of digest) hex += HEX[byte];
  return hex;
}
