import { utf8 } from './utf8.ts';

/** OWASP's current figure for PBKDF2-HMAC-SHA-256 (Password Storage Cheat Sheet); the floor we accept too. */
export const PBKDF2_ITERATIONS = 600_000;
/**
 * The ceiling we accept from stored or sent parameters: a hostile server or
 * link could otherwise name a count that hangs the device. About 17× the
 * default, far above any figure we would move to.
 */
export const PBKDF2_MAX_ITERATIONS = 10_000_000;
export const PBKDF2_SALT_BYTES = 16;

/**
 * The AES-256-GCM key PBKDF2-HMAC-SHA-256 stretches from a secret a person
 * typed. The secret is normalised to NFC first: the same passphrase typed on
 * another keyboard or platform (a precomposed é or e + U+0301) opens the same key.
 */
export async function pbkdf2AesKey(secret: string, salt: Uint8Array, iterations: number): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', utf8(secret.normalize('NFC')), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: new Uint8Array(salt), iterations },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/**
 * Whether parameters read from elsewhere are ones we would use: between the
 * floor (lowered only by tests, through the callers' `minIterations`) and the ceiling.
 */
export function acceptableIterations(iterations: number, minIterations = PBKDF2_ITERATIONS): boolean {
  return Number.isSafeInteger(iterations) && iterations >= minIterations && iterations <= PBKDF2_MAX_ITERATIONS;
}
