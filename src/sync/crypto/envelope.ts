import { z } from 'zod';
import { newIv, openGcm, sealGcm, IV_BYTES, TAG_BYTES } from './aes-gcm.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { base64UrlField } from './base64url-field.ts';
import { EnvelopeError } from './crypto-errors.ts';
import type { SyncKeys } from './data-key.ts';
import { fromUtf8, utf8 } from './utf8.ts';

/**
 * A synced document's body as the server stores it: AES-256-GCM of the
 * record's JSON under the seal key. The additional data is the database and
 * the document id, so the server cannot move a ciphertext to another document
 * or database: it would not open there.
 */

/** CouchDB refuses documents over 8 MB by default (`max_document_size`); nothing bigger is ours. */
const MAX_CIPHERTEXT_BYTES = 8 * 1024 * 1024;

export const Envelope = z.object({
  v: z.literal(1),
  iv: base64UrlField(IV_BYTES),
  ct: base64UrlField({ min: TAG_BYTES, max: MAX_CIPHERTEXT_BYTES }),
});
export type Envelope = z.infer<typeof Envelope>;

export type DocumentPlace = { database: string; docId: string };

/** `iv` is for known-answer tests only: a repeated IV under one key breaks GCM. */
export async function sealDocument(keys: SyncKeys, where: DocumentPlace, plaintext: unknown, iv: Uint8Array = newIv()): Promise<Envelope> {
  let json: string | undefined;
  try {
    json = JSON.stringify(plaintext);
  } catch (error) {
    throw new EnvelopeError('json', 'This record cannot be written as JSON.', { cause: error });
  }
  // JSON.stringify answers undefined (not a string) for undefined, functions and symbols.
  if (typeof json !== 'string') throw new EnvelopeError('json', 'This record cannot be written as JSON.');
  const ct = await sealGcm(keys.seal, iv, utf8(json), placeBytes(where));
  return { v: 1, iv: toBase64Url(iv), ct: toBase64Url(ct) };
}

/** The record inside, not yet validated: the caller parses it with the record's own schema. */
export async function openDocument(keys: SyncKeys, where: DocumentPlace, envelope: unknown): Promise<unknown> {
  const parsed = Envelope.safeParse(envelope);
  if (!parsed.success) throw new EnvelopeError('malformed', 'This document is not a sync envelope.', { cause: parsed.error });
  const opened = await openGcm(keys.seal, fromBase64Url(parsed.data.iv), fromBase64Url(parsed.data.ct), placeBytes(where));
  if (opened === undefined) throw new EnvelopeError('decrypt', 'This document does not open with this data key here.');
  try {
    return JSON.parse(fromUtf8(opened));
  } catch (error) {
    throw new EnvelopeError('json', 'This document opened but holds no JSON.', { cause: error });
  }
}

function placeBytes({ database, docId }: DocumentPlace): Uint8Array<ArrayBuffer> {
  // CouchDB's database names have no newline; refusing one keeps `${database}\n${docId}` unambiguous.
  if (database.includes('\n')) throw new RangeError('A database name must not contain a newline.');
  return utf8(`${database}\n${docId}`);
}
