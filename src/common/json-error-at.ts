/**
 * Where a streaming JSON parser (@streamparser/json) stopped on bad input:
 * at the end, for input cut off (`cutOff`); else at the absolute position its
 * message names; else at the last token it read. `bytes` is what it was fed.
 */
export function jsonErrorAt(error: unknown, lastToken: number, bytes: number): { offset: number; cutOff: boolean } {
  const text = error instanceof Error ? error.message : String(error);
  const named = /absolute position "(\d+)"/.exec(text);
  const cutOff = /ended in the middle|ended in mid-parsing/.test(text);
  return { offset: cutOff ? bytes : named ? Number(named[1]) : lastToken, cutOff };
}
