import { eachWord, wordSegments, wordTerms } from './word-segments.ts';

/** Words seen and their terms: folding a word (NFKD, marks, case) costs more than a lookup, and a history repeats its words. */
const known = new Map<string, string[]>();
const KNOWN_MAX = 50_000;

/** The terms of a word, as wordTerms folds them, from a bounded cache. */
function termsOfWord(word: string): string[] {
  let terms = known.get(word);
  if (terms === undefined) {
    if (known.size >= KNOWN_MAX) known.clear();
    terms = wordTerms(word);
    known.set(word, terms);
  }
  return terms;
}

/** The distinct terms of a document's text (a message's or a card's), in first-seen order; none for text without words. */
export function documentTerms(text: string): string[] {
  const terms = new Set<string>();
  eachWord(text, (segment) => {
    for (const term of termsOfWord(segment)) terms.add(term);
  });
  return [...terms];
}

/** The terms of a query, as a document's are made, in order and distinct: each must be in the document, the last perhaps as a prefix. */
export function queryTerms(query: string): string[] {
  return [...new Set(wordSegments(query).flatMap(({ segment }) => wordTerms(segment)))];
}
