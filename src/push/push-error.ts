/** Why a push (or the check before Save) failed, split by what the person can do about it. */
export type PushFailureKind = 'unauthorized' | 'forbidden' | 'rate_limited' | 'unreachable' | 'server' | 'refused';

export class PushError extends Error {
  override readonly name = 'PushError';
  constructor(
    readonly kind: PushFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }

  /** Offline, 429 and 5xx pass; a refused token or topic needs the person. */
  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unreachable' || this.kind === 'server';
  }
}

/** The message for an answer that was not a success, as Settings shows it next to the field it is about. */
export function pushErrorFor(status: number, detail: string): PushError {
  const said = detail ? ` (${detail})` : '';
  if (status === 401) return new PushError('unauthorized', `The server wants an access token, or refused this one${said}.`, status);
  if (status === 403) return new PushError('forbidden', `The server does not let this token publish to this topic${said}.`, status);
  if (status === 429) return new PushError('rate_limited', `The server says too many requests; try again later${said}.`, status);
  if (status >= 500) return new PushError('server', `The server failed (HTTP ${status})${said}.`, status);
  return new PushError('refused', `The server refused the request (HTTP ${status})${said}.`, status);
}
