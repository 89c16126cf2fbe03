/**
 * Path globs (a glob matcher whose pattern starts with `/`, say `/safe/*`)
 * compare characters, so `/safe/../secrets` matches `/safe/*` while the
 * server reads `/secrets`. Such a glob decides only a path already in its
 * plain form; any other value is unclear to it, and the call asks.
 */

/** Whether a glob pattern is over paths: it starts at the root. */
export const isPathGlob = (pattern: string): boolean => pattern.startsWith('/');

/**
 * Whether a path is one every server reads as written: absolute, with no `.`
 * or `..` segment (before a `;` parameter too), no doubled slash, no
 * backslash and no encoded slash or backslash — and still none after its
 * escapes are decoded, as many times over as a server might (`%252e%252e`).
 * A trailing slash is fine (`/safe/`).
 */
export function isNormalisedPath(path: string): boolean {
  let current = path;
  for (let round = 0; ; round++) {
    if (!isPlain(current)) return false;
    if (!current.includes('%')) return true;
    if (round === MAX_DECODES) return false;
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      // A `%` that is no escape: fine once something was decoded (it was `%25`), suspect in the raw path.
      return round > 0;
    }
    if (next === current) return true;
    current = next;
  }
}

/** Deeper than this, a path is not one to reason about: `%2525…` decides nothing. */
const MAX_DECODES = 4;

function isPlain(path: string): boolean {
  if (!path.startsWith('/') || path.includes('\\') || path.includes('//') || ENCODED_SEPARATOR.test(path)) return false;
  for (const segment of path.slice(1).split('/')) {
    const semicolon = segment.indexOf(';');
    const name = semicolon === -1 ? segment : segment.slice(0, semicolon);
    if (name === '.' || name === '..') return false;
  }
  return true;
}

/** `%2f` and `%5c` in either case: a slash or backslash a server may decode into the path. */
const ENCODED_SEPARATOR = /%(2f|5c)/i;
