import { serverBase } from './push-config.ts';
import { PushError, pushErrorFor } from './push-error.ts';
import type { PushMessage } from './push-message.ts';

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** Long enough for a slow phone network, short enough that a retry comes while the card still matters. */
const TIMEOUT_MS = 15_000;

export interface NtfyTarget {
  serverUrl: string;
  /** '' for none. */
  token: string;
}

/**
 * Publishes in ntfy's JSON form (POST to the server's root, the topic in the
 * body). Sent as `text/plain` and, without a token, with no header of its own:
 * a CORS "simple" request, so the browser sends it at once, with no preflight
 * round trip first. A token goes as `Authorization: Bearer`.
 */
export async function publish(fetchFn: Fetch, target: NtfyTarget, message: PushMessage): Promise<void> {
  await send(fetchFn, `${serverBase(target.serverUrl)}/`, {
    method: 'POST',
    headers: headers(target, { 'content-type': 'text/plain;charset=UTF-8' }),
    body: JSON.stringify(message),
  });
}

/**
 * Whether the token may use the topic, without publishing anything: ntfy's
 * `GET /<topic>/auth` answers 200 when it may, 401/403 when not (and 429 when
 * the server is limiting this client). What Save checks before it stores.
 */
export async function checkAccess(fetchFn: Fetch, target: NtfyTarget, topic: string): Promise<void> {
  await send(fetchFn, `${serverBase(target.serverUrl)}/${topic}/auth`, { method: 'GET', headers: headers(target, {}) });
}

function headers(target: NtfyTarget, base: Record<string, string>): Record<string, string> {
  return target.token ? { ...base, authorization: `Bearer ${target.token}` } : base;
}

async function send(fetchFn: Fetch, url: string, init: RequestInit): Promise<void> {
  let response: Response;
  try {
    response = await fetchFn(url, { ...init, redirect: 'error', credentials: 'omit', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    // A browser says no more than "failed to fetch" for offline, DNS, TLS and CORS alike.
    const why = error instanceof DOMException && error.name === 'TimeoutError' ? 'it did not answer in time' : 'the network or the server’s CORS refused the request';
    throw new PushError('unreachable', `Could not reach the server: ${why}.`);
  }
  if (response.ok) return;
  throw pushErrorFor(response.status, await errorDetail(response));
}

/** ntfy's error body is `{"code":40101,"http":401,"error":"unauthorized"}`; the `error` text is shown, cut short. */
async function errorDetail(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as unknown;
    if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string') return body.error.replace(/[^\x20-\x7e]/g, '').slice(0, 120);
  } catch {
    // Not JSON: the status says enough.
  }
  return '';
}
