import { foldText } from './fold-text.ts';

/** One word of a text: where it starts in the text, and the word as written. */
export interface WordSegment {
  index: number;
  segment: string;
}

// Letters, digits and connectors: the fallback's idea of a word where Intl.Segmenter is missing.
const WORD = /[\p{L}\p{N}\p{M}\p{Pc}]+/gu;

let segmenter: Intl.Segmenter | null | undefined;
function wordSegmenter(): Intl.Segmenter | null {
  // No locale: the root rules (UAX #29, and ICU's dictionaries for Thai, Chinese, Japanese) suit mixed-language text.
  segmenter ??= typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;
  return segmenter;
}

/** The words of `text` on Unicode word boundaries (Intl.Segmenter where the runtime has it), punctuation and spaces left out. */
export function wordSegments(text: string): WordSegment[] {
  const words: WordSegment[] = [];
  const segments = wordSegmenter();
  if (segments) {
    for (const { segment, index, isWordLike } of segments.segment(text)) if (isWordLike) words.push({ index, segment });
    return words;
  }
  for (const match of text.matchAll(WORD)) words.push({ index: match.index, segment: match[0] });
  return words;
}

// Inside a word by UAX #29 (`l'été`, `3.14`, `U.S.`), and yet where a reader sees two words.
const JOINERS = /['’.:·]/;

/**
 * The terms one word stands for, folded (see foldText): the word, and when
 * it joins parts with an apostrophe or a point, each part too, so "été"
 * finds "l'été".
 */
export function wordTerms(segment: string): string[] {
  const folded = foldText(segment);
  if (!JOINERS.test(folded)) return [folded];
  return [folded, ...folded.split(JOINERS).filter((part) => part.length > 0)];
}

/** The index's terms for `text`: those of each of its words. */
export function searchTerms(text: string): string[] {
  return wordSegments(text).flatMap(({ segment }) => wordTerms(segment));
}
