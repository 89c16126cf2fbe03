/**
 * The ntfy access token, in a row of its own (`pushToken`) beside the push
 * settings, as API keys are (api-keys.ts): bound to the server origin it was
 * saved for, so a changed server URL never carries it elsewhere; never synced,
 * never in a backup (both read named rows, and this is none of them).
 */
export const PUSH_TOKEN_KEY = 'pushToken';

export interface PushTokenValue {
  v: 1;
  origin: string;
  token: string;
}

/** The token saved for `serverUrl`'s origin, or '' when there is none (an unreadable row holds none). */
export function pushTokenFor(value: unknown, serverUrl: string): string {
  if (typeof value !== 'object' || value === null) return '';
  const row = value as Partial<PushTokenValue>;
  if (row.v !== 1 || typeof row.token !== 'string' || typeof row.origin !== 'string') return '';
  let origin: string;
  try {
    origin = new URL(serverUrl).origin;
  } catch {
    return '';
  }
  return row.origin === origin ? row.token : '';
}

/** A token an HTTP header can carry: printable ASCII without spaces, as ntfy's `tk_…` tokens are. */
export function pushTokenProblem(token: string): string | null {
  if (token === '') return null;
  if (!/^[\x21-\x7e]{1,256}$/.test(token)) return 'An access token is letters, digits and symbols, without spaces.';
  return null;
}
