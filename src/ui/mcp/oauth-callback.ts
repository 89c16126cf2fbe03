/**
 * The OAuth callback, as the sign-in popup lands on it: the app's own page at
 * `<app>/mcp-oauth-callback?code=…&state=…` (index.html, like every path
 * under the app: the service worker's navigation fallback and any SPA host
 * serve it), recognised by main.ts before the app starts (oauth-callback-path.ts), which then loads
 * relay-oauth-callback.ts: that hands the code and state to the tab that
 * opened the popup over a BroadcastChannel, which only this origin's pages
 * can hear, and closes. No inline script: these are the app's own modules,
 * under its CSP.
 */
import { CALLBACK_PATH } from './oauth-callback-path.ts';

export const CALLBACK_CHANNEL = 'pausepoint-mcp-oauth';

/** What the callback page passes on; the worker checks `state` against the sign-in it started. */
export interface CallbackMessage {
  type: 'mcp-oauth-callback';
  code: string | null;
  state: string | null;
  /** RFC 9207: the authorization server that sent the answer, when it says. */
  iss: string | null;
  error: string | null;
  errorDescription: string | null;
}

/** The redirect URI the app registers: the callback path beside index.html. */
export function callbackUrl(baseUri: string): string {
  return new URL(CALLBACK_PATH, baseUri).href;
}

/** The message, if `data` is one, as this origin's callback page sent it. */
export function readCallbackMessage(event: MessageEvent, origin: string): CallbackMessage | null {
  // BroadcastChannel is same-origin already; the check keeps it so if the transport ever changes.
  if (event.origin && event.origin !== origin) return null;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  if (record.type !== 'mcp-oauth-callback') return null;
  return {
    type: 'mcp-oauth-callback',
    code: text(record.code),
    state: text(record.state),
    iss: text(record.iss),
    error: text(record.error),
    errorDescription: text(record.errorDescription),
  };
}
