import { z } from 'zod';
import { newIv, openGcm, sealGcm, IV_BYTES, TAG_BYTES } from './aes-gcm.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { base64UrlField } from './base64url-field.ts';
import { WrappedKeyError, WrongPassphraseError } from './crypto-errors.ts';
import { DATA_KEY_BYTES } from './data-key.ts';
import { acceptableIterations, pbkdf2AesKey, PBKDF2_ITERATIONS, PBKDF2_MAX_ITERATIONS, PBKDF2_SALT_BYTES } from './pbkdf2-key.ts';
import { utf8 } from './utf8.ts';

export { PBKDF2_ITERATIONS } from './pbkdf2-key.ts';

/**
 * The data key wrapped under the passphrase, as the parameters document on the
 * server holds it. Anyone who can read the server can read this and guess
 * passphrases offline at PBKDF2's cost; the server learns nothing else.
 */
export const WrappedKey = z.object({
  v: z.literal(1),
  kdf: z.literal('PBKDF2-SHA-256'),
  // Structural only: the floor and ceiling are checked on unwrap, so weak parameters get their own refusal.
  iterations: z.number().int().positive(),
  salt: base64UrlField({ min: PBKDF2_SALT_BYTES, max: 64 }),
  iv: base64UrlField(IV_BYTES),
  wrapped: base64UrlField(DATA_KEY_BYTES + TAG_BYTES),
});
export type WrappedKey = z.infer<typeof WrappedKey>;

/** What the additional data says: these bytes are a data key, not any other thing sealed under a passphrase. */
const AAD = utf8('pausepoint.data-key');

export type WrapOptions = {
  /** Tests only: a lower count keeps them fast; `unwrapWithPassphrase` refuses it unless told otherwise. */
  iterations?: number;
  /** Known-answer tests only; otherwise fresh random bytes. */
  salt?: Uint8Array;
  iv?: Uint8Array;
};

export async function wrapWithPassphrase(raw: Uint8Array, passphrase: string, options: WrapOptions = {}): Promise<WrappedKey> {
  if (raw.length !== DATA_KEY_BYTES) throw new RangeError(`A sync data key is ${DATA_KEY_BYTES} bytes, not ${raw.length}.`);
  const iterations = options.iterations ?? PBKDF2_ITERATIONS;
  const salt = options.salt ?? crypto.getRandomValues(new Uint8Array(PBKDF2_SALT_BYTES));
  const iv = options.iv ?? newIv();
  const key = await pbkdf2AesKey(passphrase, salt, iterations);
  const wrapped = await sealGcm(key, iv, raw, AAD);
  return { v: 1, kdf: 'PBKDF2-SHA-256', iterations, salt: toBase64Url(salt), iv: toBase64Url(iv), wrapped: toBase64Url(wrapped) };
}

export type UnwrapOptions = {
  /** Tests only: accept the low counts they wrap with. Never lowered for what a server serves. */
  minIterations?: number;
};

/**
 * The data key, or: WrappedKeyError when the parameters are malformed or
 * outside what we accept (checked before any work), WrongPassphraseError when
 * the tag does not verify. `wrapped` is parsed again here: it came from a server.
 */
export async function unwrapWithPassphrase(wrapped: WrappedKey, passphrase: string, options: UnwrapOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const parsed = WrappedKey.safeParse(wrapped);
  if (!parsed.success) throw new WrappedKeyError('malformed', 'The stored sync key is not in a form this app reads.', { cause: parsed.error });
  const { iterations, salt, iv, wrapped: ciphertext } = parsed.data;
  if (!acceptableIterations(iterations, options.minIterations)) {
    throw new WrappedKeyError(
      'weak_parameters',
      `The stored sync key asks for ${iterations} PBKDF2 iterations; this app accepts ${options.minIterations ?? PBKDF2_ITERATIONS} to ${PBKDF2_MAX_ITERATIONS}.`,
    );
  }
  const key = await pbkdf2AesKey(passphrase, fromBase64Url(salt), iterations);
  const raw = await openGcm(key, fromBase64Url(iv), fromBase64Url(ciphertext), AAD);
  if (raw === undefined) throw new WrongPassphraseError();
  return raw;
}
