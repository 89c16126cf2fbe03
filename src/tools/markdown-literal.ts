/**
 * Text from a tool call shown verbatim inside a card's markdown. Whatever the
 * text holds, it stays one literal span or block: it cannot close its fence,
 * start a heading or a list, or hide characters from the person reading it.
 */

/**
 * Control and invisible formatting characters (line breaks, NUL, bidi
 * overrides, zero-width joiners) shown as their percent-encoded UTF-8 bytes:
 * in a span a line break would end the paragraph and let the rest be read as
 * markdown, and a bidi override would make `evil.example` read as something else.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const INVISIBLE_BUT_LINES = /[^\P{Cc}\n\t]|[\p{Cf}\u2028\u2029]/gu;

export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, encodeURIComponent);
}

/** An inline code span, on one line, that no backtick run inside can close. */
export function codeSpan(text: string): string {
  const shown = showInvisible(text);
  const ticks = '`'.repeat(longestBacktickRun(shown) + 1);
  return `${ticks} ${shown} ${ticks}`;
}

/** A fenced block longer than any backtick run inside, so the text cannot close it; its own line breaks and tabs stay. */
export function codeBlock(text: string): string {
  const shown = text.replace(/\r\n?/g, '\n').replace(INVISIBLE_BUT_LINES, encodeURIComponent);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(shown) + 1));
  return `${fence}text\n${shown}\n${fence}`;
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}
