import { foldText } from './fold-text.ts';

/** One word of a text: where it starts in the text, and the word as written. */
export interface WordSegment {
  index: number;
  segment: string;
}

/*
 * A word as UAX #29 has it in scripts that put spaces between words: letters,
 * digits, marks and connectors, joined across one `'`, `’`, `.`, `:` or `·`
 * between two of them ("don't", "l'été", "3.14", "e.g"), or `,` / `;`
 * between digits ("1,000"). Intl.Segmenter finds the same words there, but
 * about thirty times slower, and an index of every message pays that for
 * each word. Only text in a script written without spaces (Chinese,
 * Japanese, Thai, Lao, Khmer, Myanmar), whose boundaries only the
 * segmenter's dictionaries know, is given to it; the expression is also the
 * fallback where a runtime has no Intl.Segmenter.
 */
const WORD = /[\p{L}\p{N}\p{M}\p{Pc}]+(?:(?:['’.:·]|(?<=\p{N})[,;](?=\p{N}))[\p{L}\p{N}\p{M}\p{Pc}]+)*/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

let segmenter: Intl.Segmenter | null | undefined;
function wordSegmenter(): Intl.Segmenter | null {
  // No locale: the root rules (UAX #29, and ICU's dictionaries for Thai, Chinese, Japanese) suit mixed-language text.
  segmenter ??= typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;
  return segmenter;
}

/**
 * Calls `visit` with each word of `text` on Unicode word boundaries (see
 * `WORD`), punctuation and spaces left out: no array and no object per word,
 * which an index build over every message would otherwise make by the
 * million. `visit` must not call eachWord itself: both would move the one
 * expression's `lastIndex`.
 */
export function eachWord(text: string, visit: (segment: string, index: number) => void): void {
  const segments = UNSPACED.test(text) ? wordSegmenter() : null;
  if (segments) {
    for (const { segment, index, isWordLike } of segments.segment(text)) if (isWordLike) visit(segment, index);
    return;
  }
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) visit(match[0], match.index);
}

/** The words of `text`, each with where it starts (see eachWord). */
export function wordSegments(text: string): WordSegment[] {
  const words: WordSegment[] = [];
  eachWord(text, (segment, index) => words.push({ index, segment }));
  return words;
}

// Inside a word by UAX #29 (`l'été`, `3.14`, `1,000`), and yet where a reader may look for either part.
const JOINERS = /['’.:·,;]/;

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
