import { z } from 'zod';
import { SigningKeyJwk } from '../../identity/signing-key-jwk.ts';
import { newIv, openGcm, sealGcm, IV_BYTES, TAG_BYTES } from './aes-gcm.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { base64UrlField } from './base64url-field.ts';
import { Base64UrlError, PairingError } from './crypto-errors.ts';
import { DATA_KEY_BYTES } from './data-key.ts';
import { isPairingCode, normalisePairingCode } from './pairing-code.ts';
import { acceptableIterations, pbkdf2AesKey, PBKDF2_ITERATIONS, PBKDF2_SALT_BYTES } from './pbkdf2-key.ts';
import { fromUtf8, utf8 } from './utf8.ts';

/** What a pairing link carries to the new device: everything it needs to join, the data key included. */
export const PairingPayload = z.object({
  v: z.literal(1),
  serverUrl: z.url({ protocol: /^https?$/ }),
  database: z.string().min(1).max(238),
  username: z.string().max(200),
  password: z.string().max(1000),
  dataKey: base64UrlField(DATA_KEY_BYTES),
  pairingId: z.uuid(),
  /** The inviting device's clock; the joining device checks it, with the one-time use. */
  expiresAt: z.number().int().nonnegative(),
  inviter: z.object({ deviceId: z.string().min(1).max(200), name: z.string().max(200) }),
  /** The hash of what the inviting device held (src/sync/rollback-heads.ts): the new device takes nothing older. */
  heads: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  /**
   * The inviter's signing key and the membership log's head as it knows it
   * (its seq and the hash of its last entry): the new device pins every key
   * from a log that must end in this head, so the server cannot show it
   * another group. Links of versions before the log lack them, and are refused.
   */
  inviterKey: SigningKeyJwk.optional(),
  membership: z.object({ seq: z.number().int().positive(), hash: z.string().regex(/^[A-Za-z0-9_-]{43}$/) }).optional(),
});
export type PairingPayload = z.infer<typeof PairingPayload>;

/**
 * The blob is binary, then base64url: it rides in a URL and a QR code, where
 * every byte makes the code denser, and JSON would base64 the ciphertext twice.
 *
 *   byte 0       version (1)
 *   bytes 1–4    PBKDF2 iterations, unsigned big-endian
 *   bytes 5–20   PBKDF2 salt
 *   bytes 21–32  AES-GCM IV
 *   bytes 33–    AES-256-GCM ciphertext of the payload's JSON, tag last
 *
 * The header (bytes 0–32) is the additional data: no byte of it can change
 * without the link failing to open.
 */
const HEADER_BYTES = 1 + 4 + PBKDF2_SALT_BYTES + IV_BYTES;
/** The Join request's own limit on the blob's text (sync-control.ts). */
const MAX_BLOB_CHARS = 8000;

const bytesOf = (length: number) => z.instanceof(Uint8Array).refine((bytes) => bytes.length === length, `expected ${length} bytes`);
/** The blob's fields once split, checked as every sent shape is. */
const PairingBlob = z.object({
  v: z.literal(1),
  iterations: z.number().int(),
  salt: bytesOf(PBKDF2_SALT_BYTES),
  iv: bytesOf(IV_BYTES),
  ct: z.instanceof(Uint8Array).refine((bytes) => bytes.length >= TAG_BYTES, 'no room for the tag'),
});

export type SealPairingOptions = {
  /** Tests only: a lower count keeps them fast; `openPairing` refuses it unless told otherwise. */
  iterations?: number;
  /** Known-answer tests only; otherwise fresh random bytes. */
  salt?: Uint8Array;
  iv?: Uint8Array;
};

export async function sealPairing(payload: PairingPayload, code: string, options: SealPairingOptions = {}): Promise<string> {
  const checked = PairingPayload.parse(payload);
  if (!isPairingCode(code)) throw new RangeError('Not a pairing code.');
  const iterations = options.iterations ?? PBKDF2_ITERATIONS;
  const salt = options.salt ?? crypto.getRandomValues(new Uint8Array(PBKDF2_SALT_BYTES));
  const iv = options.iv ?? newIv();
  if (salt.length !== PBKDF2_SALT_BYTES || iv.length !== IV_BYTES) throw new RangeError(`A pairing salt is ${PBKDF2_SALT_BYTES} bytes, its IV ${IV_BYTES}.`);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > 0xffff_ffff) throw new RangeError('The iteration count must fit the link header.');
  const header = headerBytes(iterations, salt, iv);
  const key = await pbkdf2AesKey(normalisePairingCode(code), salt, iterations);
  const ct = await sealGcm(key, iv, utf8(JSON.stringify(checked)), header);
  const blob = new Uint8Array(HEADER_BYTES + ct.length);
  blob.set(header);
  blob.set(ct, HEADER_BYTES);
  return toBase64Url(blob);
}

export type OpenPairingOptions = {
  /** Tests only: accept the low counts they seal with. Never lowered for a link someone opened. */
  minIterations?: number;
};

/**
 * The payload, or PairingError: `bad_link` for anything not a link of ours
 * (checked before any work, weak or absurd iteration counts included: the
 * link may come from anyone), `wrong_code` when the code is not a code or the
 * tag does not verify. Expiry and one-time use are the caller's to check.
 */
export async function openPairing(blob: string, code: string, options: OpenPairingOptions = {}): Promise<PairingPayload> {
  const parts = PairingBlob.safeParse(split(blob));
  if (!parts.success) throw new PairingError('bad_link', 'This is not a pairing link, or it was cut short.', { cause: parts.error });
  const { iterations, salt, iv, ct } = parts.data;
  if (!acceptableIterations(iterations, options.minIterations)) {
    throw new PairingError('bad_link', `This pairing link asks for ${iterations} PBKDF2 iterations, which this app does not accept.`);
  }
  if (!isPairingCode(code)) throw new PairingError('wrong_code', 'That is not a pairing code.');
  const key = await pbkdf2AesKey(normalisePairingCode(code), salt, iterations);
  const opened = await openGcm(key, iv, ct, headerBytes(iterations, salt, iv));
  if (opened === undefined) throw new PairingError('wrong_code', 'The pairing code does not open this link.');
  // Past the tag, the bytes are the inviter's: a payload that does not parse is a link of a version we do not read.
  let json: unknown;
  try {
    json = JSON.parse(fromUtf8(opened));
  } catch (error) {
    throw new PairingError('bad_link', 'This pairing link holds no invitation this app reads.', { cause: error });
  }
  const payload = PairingPayload.safeParse(json);
  if (!payload.success) throw new PairingError('bad_link', 'This pairing link holds no invitation this app reads.', { cause: payload.error });
  return payload.data;
}

/** The header as sealed: one layout, so rebuilding it from the parsed fields gives back the very bytes read. */
function headerBytes(iterations: number, salt: Uint8Array, iv: Uint8Array): Uint8Array<ArrayBuffer> {
  const header = new Uint8Array(HEADER_BYTES);
  const view = new DataView(header.buffer);
  view.setUint8(0, 1);
  view.setUint32(1, iterations);
  header.set(salt, 5);
  header.set(iv, 5 + PBKDF2_SALT_BYTES);
  return header;
}

/** The blob's fields, or undefined when the text is not base64url of at least a header. */
function split(blob: string): unknown {
  if (typeof blob !== 'string' || blob.length > MAX_BLOB_CHARS) return undefined;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64Url(blob);
  } catch (error) {
    if (error instanceof Base64UrlError) return undefined;
    throw error;
  }
  if (bytes.length < HEADER_BYTES) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    v: view.getUint8(0),
    iterations: view.getUint32(1),
    salt: bytes.subarray(5, 5 + PBKDF2_SALT_BYTES),
    iv: bytes.subarray(5 + PBKDF2_SALT_BYTES, HEADER_BYTES),
    ct: bytes.subarray(HEADER_BYTES),
  };
}
