/*
 * A server's words (names, descriptions, questions) shown on a card as
 * literal text: in a code span or a fenced block longer than any backtick run
 * inside, so they cannot forge headings, links or buttons in the card's markdown.
 */

function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

export function codeSpan(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  const ticks = '`'.repeat(longestBacktickRun(oneLine) + 1);
  return `${ticks} ${oneLine} ${ticks}`;
}

export function codeBlock(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}text\n${text}\n${fence}`;
}
