import { foldText, foldWithOffsets } from './fold-text.ts';
import { wordSegments, wordTerms } from './word-segments.ts';

/**
 * A piece of the text a match was found in, and where in it the match is:
 * plain text and offsets, never markup, so the page builds the `<mark>`s
 * itself from text nodes. `cutBefore` / `cutAfter`: the piece starts or ends
 * inside the text (shown as "…").
 */
/** See `Snippet` in search-result.ts; built here so the page gets offsets, never markup. */
export interface Snippet {
  text: string;
  marks: [start: number, end: number][];
  cutBefore: boolean;
  cutAfter: boolean;
}

/** Characters of context kept before the first match, and the most a snippet holds. */
const BEFORE = 40;
const LENGTH = 160;

const MIN_PREFIX = 2;

/**
 * The snippet of `text` for `query`: the words matching the query's words as
 * the index matched them (folded; the last query word also as a prefix),
 * or else the query as typed found anywhere (a title's substring match),
 * around the first match.
 */
export function searchSnippet(text: string, query: string): Snippet {
  const marks = wordMarks(text, query);
  if (marks.length === 0) marks.push(...substringMarks(text, query));
  const first = marks[0]?.[0] ?? 0;
  let start = Math.max(0, first - BEFORE);
  // Start at a word: the first word boundary after the cut, unless that would pass the match.
  if (start > 0) {
    const space = text.slice(start, first).search(/\s/);
    if (space >= 0) start += space + 1;
  }
  const end = Math.min(text.length, start + LENGTH);
  return {
    text: text.slice(start, end),
    marks: marks.filter(([s, e]) => s >= start && e <= end).map(([s, e]) => [s - start, e - start]),
    cutBefore: start > 0,
    cutAfter: end < text.length,
  };
}

function wordMarks(text: string, query: string): [number, number][] {
  const terms = wordSegments(query).flatMap(({ segment }) => wordTerms(segment));
  if (terms.length === 0) return [];
  const whole = new Set(terms);
  const last = terms[terms.length - 1]!;
  const prefix = last.length >= MIN_PREFIX ? last : null;
  const marks: [number, number][] = [];
  for (const { index, segment } of wordSegments(text)) {
    const variants = wordTerms(segment);
    if (variants.some((v) => whole.has(v) || (prefix !== null && v.startsWith(prefix)))) marks.push([index, index + segment.length]);
  }
  return marks;
}

function substringMarks(text: string, query: string): [number, number][] {
  const needle = foldText(query.trim());
  if (!needle) return [];
  const { folded, origin } = foldWithOffsets(text);
  const at = folded.indexOf(needle);
  if (at < 0) return [];
  return [[origin[at]!, origin[at + needle.length]!]];
}
