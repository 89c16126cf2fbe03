/**
 * Characters that would act as layout or reorder text rather than be seen:
 * C0 and C1 controls and DEL, the line and paragraph separators (U+2028,
 * U+2029, which JSON leaves as they are), the bidi embeddings, overrides and
 * isolates with the directional marks (a right-to-left override makes
 * `moc.live` read `evil.com`), and the invisible zero-width space, word
 * joiner, invisible operators and byte-order mark. ZWJ and ZWNJ stay: scripts
 * and emoji need them, and they move nothing.
 */
// Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const UNSEEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
// eslint-disable-next-line no-control-regex
const UNSEEN_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * The text with every such character shown as its escape (`\u202e`), never
 * acting as layout. `multiline` keeps line feeds and tabs, which markdown
 * (a description) uses as they are meant.
 */
export function showControls(text: string, multiline: boolean): string {
  if (multiline) return text.replace(/\r\n/g, '\n').replace(UNSEEN_BUT_LINES, escape);
  return text.replace(UNSEEN, escape);
}

function escape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
