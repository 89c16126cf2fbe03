/**
 * URL arguments as approval rules see them. A rule allows an origin (scheme,
 * host and port, compared exactly) and optionally a path prefix. The tricks a
 * model or a page it read may try are answered here:
 * - `https://api.example.com.evil.com`, `https://api.example.com@evil.com`:
 *   the origin is what the browser's own URL parser says it is, so both are
 *   evil.com's; and a URL with userinfo is never read as any origin (it exists
 *   to make one host read like another);
 * - `https://allowed.example\@evil.example/`: allowed.example to the
 *   browser's parser, evil.example to an RFC 3986 one (an MCP server's). A
 *   rule reads only a URL written the way the browser writes it back (its raw
 *   string equals `new URL(value).href`); any other string is `unclear`, and
 *   a call with an unclear argument a rule reads asks;
 * - `https://evil.example.` is evil.example to DNS: one trailing dot of a
 *   host is dropped on both sides of every comparison;
 * - `/api/../admin`, `/api/%2e%2e/admin`, `/api/..%2fadmin`, `/api/..;/admin`,
 *   `/api//../admin`, `/api\..\admin`: the path is compared after decoding
 *   percent-escapes (repeatedly, for servers that decode twice), reading `\`
 *   as `/`, merging repeated slashes and resolving dot segments the way any
 *   server on the way might — so each of these is `/admin`, not under `/api/`.
 */

export interface CallUrl {
  origin: string;
  /** The decoded, normalised path; null when it cannot be decoded (it then matches no path prefix). */
  path: string | null;
}

/**
 * A string argument that a URL rule cannot read the way the server will: not
 * in the browser's canonical form, or carrying userinfo. Neither a match nor
 * a miss: the call asks.
 */
export const UNCLEAR_URL = 'unclear';

/**
 * A URL argument ready for matching; `unclear` for a string a rule must not
 * guess about; null for what is no URL at all (a number, an array, nothing)
 * or has an opaque origin — no URL rule ever holds for those.
 */
export function parseCallUrl(value: unknown): CallUrl | typeof UNCLEAR_URL | null {
  if (typeof value !== 'string') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // A server may still read a host into it (`evil.example/x`, `//evil.example`).
    return UNCLEAR_URL;
  }
  // Whatever the browser rewrote (a backslash, `%2e%2e`, case, a default port) another parser may read otherwise.
  if (url.href !== value || url.username !== '' || url.password !== '') return UNCLEAR_URL;
  // Opaque origins (data:, blob:, file: in some engines) serialise as "null": never an allowed origin.
  if (url.origin === 'null') return null;
  // The URL parser has resolved dot segments already; only escapes, backslashes, `;` and `//` can hide more.
  return { origin: withoutTrailingDot(url.origin), path: MAY_HIDE_SEGMENTS.test(url.pathname) ? normalisePath(url.pathname) : url.pathname };
}

/**
 * An origin with one trailing dot of its host dropped (`https://evil.example.:8443`
 * is `https://evil.example:8443`): DNS reads both as one host, so rules must too.
 * Only one: `evil.example..` is no host DNS resolves, and stays unequal.
 */
export function withoutTrailingDot(origin: string): string {
  const port = origin.lastIndexOf(':');
  // `https://host` has its only `:` right after the scheme; `https://[::1]` ends in `]`.
  const hostEnd = port > origin.indexOf('://') && !origin.endsWith(']') ? port : origin.length;
  return origin.charCodeAt(hostEnd - 1) === DOT ? origin.slice(0, hostEnd - 1) + origin.slice(hostEnd) : origin;
}

const DOT = 46;

/**
 * Whether a call's origin (as parseCallUrl gives it, its trailing dot dropped)
 * is a rule's origin, written with a trailing dot or without. Most rules name
 * another origin altogether: their lengths tell at once.
 */
export function isRuleOrigin(callOrigin: string, ruleOrigin: string): boolean {
  return ruleOrigin === callOrigin || (ruleOrigin.length === callOrigin.length + 1 && withoutTrailingDot(ruleOrigin) === callOrigin);
}

const MAY_HIDE_SEGMENTS = /[%\\;]|\/\//;

/**
 * The origin `text` names, in the form URL#origin writes it
 * (`https://API.example.com:443` is `https://api.example.com`) less a
 * trailing dot of its host, or null when
 * `text` is not just an origin (a path, query, userinfo, or not a URL at all).
 */
export function canonicalOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null; // not a URL, so not an origin
  }
  if (url.origin === 'null' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return null;
  // `https://x.test/` and `https://x.test` both have the path `/`.
  return url.pathname === '/' ? withoutTrailingDot(url.origin) : null;
}

/**
 * Whether a normalised path lies under a prefix, segment by segment: `/api`
 * covers `/api` and `/api/v1` but not `/apiary`; `/api/` covers `/api/v1`
 * (and `/api/` itself) but not `/api`.
 */
export function isUnderPath(path: string | null, prefix: string): boolean {
  const base = normalisedPrefix(prefix);
  if (path === null || base === null) return false;
  if (base.endsWith('/')) return path.startsWith(base);
  return path === base || path.startsWith(`${base}/`);
}

/** The longest a path may be decoded: `%2525…` more deeply nested than this matches no prefix. */
const MAX_DECODES = 4;

/** A path as a server may finally read it; null when that cannot be known (a malformed escape). */
export function normalisePath(path: string): string | null {
  let decoded = path;
  for (let round = 0; ; round++) {
    if (!decoded.includes('%')) break;
    if (round === MAX_DECODES) return null;
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      // A `%` that is no escape: fine once something was decoded (it was `%25`), suspect in the raw path.
      if (round === 0) return null;
      break;
    }
    if (next === decoded) break;
    decoded = next;
  }
  const segments: string[] = [];
  const parts = decoded.replaceAll('\\', '/').split('/');
  for (const part of parts) {
    const name = segmentName(part);
    if (name === '' || name === '.') continue;
    if (name === '..') segments.pop();
    else segments.push(part);
  }
  // A path ending in `/`, `.` or `..` names a directory: keep its slash (`/api/v1/..` is `/api/`).
  const last = segmentName(parts.at(-1) ?? '');
  const directory = parts.length > 1 && (last === '' || last === '.' || last === '..');
  const joined = `/${segments.join('/')}`;
  return directory && segments.length > 0 ? `${joined}/` : joined;
}

/** A segment without its path parameters: `;` starts them, and `..;x` is `..` to some servers. */
function segmentName(part: string): string {
  const semicolon = part.indexOf(';');
  return semicolon === -1 ? part : part.slice(0, semicolon);
}

/** Prefixes are few and repeat on every call: normalise each once. */
const prefixes = new Map<string, string | null>();
const MAX_CACHED_PREFIXES = 10_000;

function normalisedPrefix(prefix: string): string | null {
  const cached = prefixes.get(prefix);
  if (cached !== undefined) return cached;
  const normalised = prefix.startsWith('/') ? normalisePath(prefix) : null;
  if (prefixes.size >= MAX_CACHED_PREFIXES) prefixes.clear();
  prefixes.set(prefix, normalised);
  return normalised;
}
