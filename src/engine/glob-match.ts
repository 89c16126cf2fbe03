/**
 * Whether `text` matches a glob: `*` matches any run of characters (none
 * included), `?` exactly one, and every other character only itself. Rules
 * hold globs the user typed or a card made, so this is deliberately not a
 * regular expression: nothing in a pattern can change what the matcher does,
 * and the two-pointer walk below is O(pattern × text) at worst, with none of a
 * backtracking regex's blow-ups. Characters are code points, so `?` matches
 * an emoji as one character.
 */
export function matchGlob(pattern: string, text: string): boolean {
  // A string is walked as it is (no allocation); text with surrogates as code points.
  if (SURROGATE.test(pattern) || SURROGATE.test(text)) return walk(Array.from(pattern), Array.from(text));
  return walk(pattern, text);
}

/** True when a pattern has wildcards; a pattern without any matches only itself. */
export function isGlob(pattern: string): boolean {
  return pattern.includes('*') || pattern.includes('?');
}

/**
 * The characters every match starts with (`mcp_files_` of `mcp_files_*`): a
 * text that does not start with them cannot match, which is most texts.
 */
export function literalPrefix(pattern: string): string {
  const star = pattern.indexOf('*');
  const question = pattern.indexOf('?');
  const end = star === -1 ? question : question === -1 ? star : Math.min(star, question);
  return end === -1 ? pattern : pattern.slice(0, end);
}

const SURROGATE = /[\uD800-\uDFFF]/;

/*
 * Where the last `*` was, and where in the text it started matching: on a
 * mismatch the star takes one more character and matching resumes after it.
 * Over UTF-16 code units (a string) or code points (an array of them).
 */
function walk(pattern: ArrayLike<string>, text: ArrayLike<string>): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    const c = p < pattern.length ? pattern[p] : undefined;
    if (c === '*') {
      star = p++;
      resume = t;
    } else if (c !== undefined && (c === '?' || c === text[t])) {
      p++;
      t++;
    } else if (star !== -1) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
