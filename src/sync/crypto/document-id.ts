import type { SyncKeys } from './data-key.ts';
import { utf8 } from './utf8.ts';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * A record's id on the server: HMAC-SHA-256 under the name key of
 * `${kind}\n${localId}`, as 64 lowercase hex digits. The server cannot tell
 * which record, or which kind of record, an id stands for, yet every device
 * computes the same id for the same record, so a second create of it gets 409.
 * Hex, because a CouchDB id must not start with `_`.
 */
export async function documentId(keys: SyncKeys, kind: string, localId: string): Promise<string> {
  // A newline in the kind would let two (kind, localId) pairs spell the same message.
  if (kind.includes('\n')) throw new RangeError('A record kind must not contain a newline.');
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', keys.name, utf8(`${kind}\n${localId}`)));
  let hex = '';
  for (const byte of mac) hex += HEX[byte];
  return hex;
}
