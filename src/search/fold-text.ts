const MARKS = /\p{M}/gu;
const SHARP_S = /ß/g;

/**
 * A word as the index compares it: compatibility-decomposed (NFKD: `ﬁ` is
 * `fi`, full-width `Ａ` is `A`), its combining marks dropped (`é` is `e`,
 * `Å` is `A`) and lower-cased, so "Café", "CAFE" and "cafe" are one term;
 * `ß` is `ss` as in full case folding, which lower-casing alone does not do.
 */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(SHARP_S, 'ss');
}

/**
 * `text` folded, with where each folded code unit came from in `text`, so a
 * match found in the folded text can be marked in the original (one
 * original character may fold to none, one or several).
 */
export function foldWithOffsets(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  let index = 0;
  for (const char of text) {
    const part = foldText(char);
    for (let i = 0; i < part.length; i++) origin.push(index);
    folded += part;
    index += char.length;
  }
  origin.push(index);
  return { folded, origin };
}
