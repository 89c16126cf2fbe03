/**
 * AES-256-GCM through WebCrypto with the parts every sealed shape shares: a
 * fresh 96-bit IV, a 128-bit tag appended to the ciphertext, and additional
 * data that names what the bytes are for, so a ciphertext of one kind never
 * opens as another.
 */

export const IV_BYTES = 12;
export const TAG_BYTES = 16;

/** A fresh random 96-bit IV. With random IVs one key stays safe for about 2^32 messages (NIST SP 800-38D §8.3). */
export function newIv(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(IV_BYTES));
}

export async function sealGcm(key: CryptoKey, iv: Uint8Array, plaintext: Uint8Array, additionalData: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  if (iv.length !== IV_BYTES) throw new RangeError(`An AES-GCM IV here is ${IV_BYTES} bytes, not ${iv.length}.`);
  // Copies: WebCrypto wants ArrayBuffer-backed views, and the caller's arrays may be views of shared memory.
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: new Uint8Array(iv), additionalData: new Uint8Array(additionalData), tagLength: TAG_BYTES * 8 },
    key,
    new Uint8Array(plaintext),
  );
  return new Uint8Array(sealed);
}

/**
 * The plaintext, or undefined when the tag does not verify (wrong key, other
 * additional data, a flipped bit). Every other failure is thrown: it is a bug
 * or a broken runtime, not a ciphertext that is not ours.
 */
export async function openGcm(key: CryptoKey, iv: Uint8Array, ciphertext: Uint8Array, additionalData: Uint8Array): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (iv.length !== IV_BYTES || ciphertext.length < TAG_BYTES) return undefined;
  try {
    const opened = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: new Uint8Array(iv), additionalData: new Uint8Array(additionalData), tagLength: TAG_BYTES * 8 },
      key,
      new Uint8Array(ciphertext),
    );
    return new Uint8Array(opened);
  } catch (error) {
    // WebCrypto reports a tag that does not verify as an OperationError and nothing else (WebCrypto §30.4.2, "decrypt").
    if (error instanceof DOMException && error.name === 'OperationError') return undefined;
    throw error;
  }
}
