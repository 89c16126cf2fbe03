/**
 * Cuts text into pieces of `size` code points. Splitting by code point keeps emoji and
 * other astral characters whole, as a real tokenizer-driven stream would.
 */
export function splitText(text: string, size: number): string[] {
  const chars = Array.from(text);
  const step = Math.max(1, Math.floor(size));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += step) pieces.push(chars.slice(i, i + step).join(''));
  return pieces;
}
