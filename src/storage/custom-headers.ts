import { HTTP_TOKEN } from '../common/http-token.ts';
import { endpointOrigin } from './endpoint-origin.ts';

/**
 * Custom request headers per endpoint origin (a company gateway's own
 * `X-Gateway-Token`, say), in a row of their own (`key: 'endpointHeaders'`)
 * beside the API keys row and keyed like it: a header is only ever sent to the
 * origin it was saved under. Values are treated like keys — they are often
 * secrets — so backups and audit exports, which read the settings row only,
 * never see them.
 *
 * Read without zod, like api-keys.ts: the page reads it on every start.
 * Anything not exactly as written reads as no headers.
 */
export const ENDPOINT_HEADERS_KEY = 'endpointHeaders';

/** A bound against a pasted list, not a policy. */
export const MAX_CUSTOM_HEADERS = 20;

export interface CustomHeader {
  name: string;
  value: string;
}

export interface EndpointHeadersValue {
  v: 1;
  /** Origin (`https://gateway.example`) → its headers, in the order they were entered. */
  headers: Record<string, CustomHeader[]>;
}

/**
 * Set by the API key or by the SDK itself (a second `Authorization` would
 * replace the key), or describing the body the SDK writes.
 */
const MANAGED = new Set(['authorization', 'content-type', 'content-length', 'host', 'cookie']);

/** The Fetch standard's forbidden request-header names: a browser drops or refuses them. */
const FORBIDDEN = new Set([
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'access-control-request-private-network',
  'connection',
  'cookie2',
  'date',
  'dnt',
  'expect',
  'keep-alive',
  'origin',
  'referer',
  'set-cookie',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'via',
  'x-http-method',
  'x-http-method-override',
  'x-method-override',
]);

/** Why a header name cannot be sent, or undefined when it can. */
export function headerNameProblem(name: string): string | undefined {
  if (name === '') return 'Enter a header name.';
  if (!HTTP_TOKEN.test(name)) return 'Use letters, digits and - _ . ! # $ % & \' * + ^ ` | ~ only, without spaces or colons.';
  const lower = name.toLowerCase();
  if (lower === 'authorization') return 'Authorization is sent from the API key: enter the key there.';
  if (MANAGED.has(lower)) return `${name} is set by Pausepoint itself.`;
  if (FORBIDDEN.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-')) return `Browsers do not let a page set ${name}.`;
  return undefined;
}

/**
 * Why a header value cannot be sent, or undefined when it can. Line breaks
 * would split one header into two (header injection); fetch refuses other
 * control characters and anything beyond Latin-1.
 */
export function headerValueProblem(value: string): string | undefined {
  const codes = Array.from(value, (char) => char.codePointAt(0) ?? 0);
  if (codes.some((code) => code < 0x20 || code === 0x7f)) return 'Remove line breaks and other control characters.';
  if (codes.some((code) => code > 0xff)) return 'Use only Latin characters: browsers cannot send others in a header.';
  return undefined;
}

/** The saved headers by origin; an unreadable row, or an unsendable entry, holds none. */
export function storedEndpointHeaders(value: unknown): Map<string, CustomHeader[]> {
  const found = new Map<string, CustomHeader[]>();
  if (!isRecord(value) || value.v !== 1 || !isRecord(value.headers)) return found;
  for (const [origin, list] of Object.entries(value.headers)) {
    if (endpointOrigin(origin) !== origin || !Array.isArray(list)) continue;
    const headers = list.filter(isSendable).slice(0, MAX_CUSTOM_HEADERS).map(({ name, value }) => ({ name, value }));
    if (headers.length > 0) found.set(origin, headers);
  }
  return found;
}

/** The headers saved for the base URL's own origin, and no other's; empty when there are none. */
export function headersFor(value: unknown, baseUrl: string): CustomHeader[] {
  const origin = endpointOrigin(baseUrl);
  return origin === undefined ? [] : (storedEndpointHeaders(value).get(origin) ?? []);
}

/** The row with `headers` saved for `origin`; none removes the origin's entry. */
export function withEndpointHeaders(value: unknown, origin: string, headers: readonly CustomHeader[]): EndpointHeadersValue {
  const all = storedEndpointHeaders(value);
  if (headers.length === 0) all.delete(origin);
  else all.set(origin, headers.map(({ name, value }) => ({ name, value })));
  return { v: 1, headers: Object.fromEntries(all) };
}

function isSendable(entry: unknown): entry is CustomHeader {
  return (
    isRecord(entry) &&
    typeof entry.name === 'string' &&
    typeof entry.value === 'string' &&
    headerNameProblem(entry.name) === undefined &&
    headerValueProblem(entry.value) === undefined
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
