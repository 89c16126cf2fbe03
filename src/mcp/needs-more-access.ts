/**
 * The server answered a request with 403 `insufficient_scope` (RFC 6750 §3.1):
 * the token is good but does not cover what was asked. Thrown from the
 * transport's fetch, before the SDK sees the answer: the SDK would otherwise
 * refresh the token (which brings back the same scopes) and send the request
 * again on its own, and only the user can grant more (Sign in again).
 */
export class NeedsMoreAccess extends Error {
  override readonly name = 'NeedsMoreAccess';
  constructor(
    /** The scopes the 403 named (space-separated), empty when it named none. */
    readonly scope: string,
    /** Where its WWW-Authenticate said the protected resource metadata is. */
    readonly resourceMetadataUrl: string | undefined,
  ) {
    super(`the server asks for more access${scope ? ` (scope ${scope})` : ''} than this browser's sign-in gives`);
  }
}

/** Two scope strings as one (RFC 6749 §3.3: space-separated, order not significant), each scope once, in first-seen order. */
export function scopeUnion(...scopes: (string | null | undefined)[]): string {
  return [...new Set(scopes.flatMap((scope) => (scope ?? '').split(/\s+/)).filter(Boolean))].join(' ');
}
