import { utf8Scratch } from './utf8-scratch.ts';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** SHA-256 of the text's UTF-8 bytes, as 64 lowercase hex digits. WebCrypto: browsers, workers and Node 20. */
export async function sha256Hex(text: string): Promise<string> {
  // `digest` copies its input before it returns its promise ("get a copy of the bytes"): the scratch buffer may be reused meanwhile.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8Scratch(text)));
  let hex = '';
  for (const byte of digest) hex += HEX[byte];
  return hex;
}
