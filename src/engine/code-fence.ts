/** Text in a code fence one backtick longer than its longest run of backticks, so nothing inside can close it. */
export function codeFence(text: string, language = ''): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${language}\n${text}\n${ticks}`;
}
