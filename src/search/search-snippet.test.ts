import { describe, expect, test } from 'vitest';
import { searchSnippet } from './search-snippet.ts';

const marked = (text: string, query: string) => {
  const { text: piece, marks } = searchSnippet(text, query);
  return marks.map(([s, e]) => piece.slice(s, e));
};

describe('searchSnippet', () => {
  test('marks the words as the index matched them, in the original spelling', () => {
    expect(marked('Le CAFÉ de Zoë, café au lait', 'cafe zoe')).toEqual(['CAFÉ', 'Zoë', 'café']);
    expect(marked('Invoices for March and marching band', 'mar')).toEqual(['March', 'marching']);
    expect(marked("Cet été, l'été dernier", 'ete')).toEqual(['été', "l'été"]);
    expect(marked('東京タワーに行きました。', '東京タワー')).toEqual(['東京タワー']);
  });

  test('a title matched mid-word is marked where the query is', () => {
    expect(marked('Trip to Øslo', 'slo')).toEqual(['slo']);
    expect(marked('Crossroads', 'ROADS')).toEqual(['roads']);
    // Words the index matched are marked as words, before any substring.
    expect(marked('Trip to Oslo', 'TO OS')).toEqual(['to', 'Oslo']);
  });

  test('a long text is cut around the first match, at a word', () => {
    const text = `${'lorem ipsum '.repeat(50)}the needle here ${'dolor sit '.repeat(50)}`;
    const snippet = searchSnippet(text, 'needle');
    expect(snippet.cutBefore).toBe(true);
    expect(snippet.cutAfter).toBe(true);
    expect(snippet.text.length).toBeLessThanOrEqual(160);
    expect(snippet.text.startsWith('lorem') || snippet.text.startsWith('ipsum')).toBe(true);
    expect(snippet.marks).toHaveLength(1);
    const [start, end] = snippet.marks[0]!;
    expect(snippet.text.slice(start, end)).toBe('needle');
  });

  test('a short text is whole, and with no match is its start, unmarked', () => {
    expect(searchSnippet('short and sweet', 'sweet')).toEqual({ text: 'short and sweet', marks: [[10, 15]], cutBefore: false, cutAfter: false });
    expect(searchSnippet('nothing here', 'absent')).toEqual({ text: 'nothing here', marks: [], cutBefore: false, cutAfter: false });
  });
});
