import { randomBytes } from 'node:crypto';

/** `prefix` + 24 url-safe characters, the shape of OpenAI's `call_…` and `chatcmpl-…` ids. */
export function randomId(prefix: string): string {
  return prefix + randomBytes(18).toString('base64url');
}
