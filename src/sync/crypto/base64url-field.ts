import { z } from 'zod';
import { fromBase64Url } from './base64url.ts';
import { Base64UrlError } from './crypto-errors.ts';

/**
 * A zod string that must be canonical base64url of a byte string of the given
 * length (or range): what every stored or sent binary field is. The length is
 * checked on the text first, so a huge hostile field is refused undecoded.
 */
export function base64UrlField(bytes: number | { min: number; max: number }) {
  const { min, max } = typeof bytes === 'number' ? { min: bytes, max: bytes } : bytes;
  return z
    .string()
    .min(Math.ceil((min * 4) / 3))
    .max(Math.ceil((max * 4) / 3))
    .refine((text) => {
      const length = decodedLength(text);
      return length !== undefined && length >= min && length <= max;
    }, `expected base64url of ${min === max ? min : `${min} to ${max}`} bytes`);
}

function decodedLength(text: string): number | undefined {
  try {
    return fromBase64Url(text).length;
  } catch (error) {
    // Only "not base64url" is a validation failure; anything else is a bug to surface.
    if (error instanceof Base64UrlError) return undefined;
    throw error;
  }
}
