import { describe, expect, it } from 'vitest';
import { isGlob, matchGlob } from './glob-match.ts';

describe('matchGlob', () => {
  it.each([
    ['delete_*', 'delete_note', true],
    ['delete_*', 'delete_', true],
    ['delete_*', 'undelete_note', false],
    ['*_note', 'save_note', true],
    ['*', '', true],
    ['*', 'anything at all', true],
    ['note?', 'notes', true],
    ['note?', 'note', false],
    ['note?', 'notess', false],
    ['a*b*c', 'aXXbYYc', true],
    ['a*b*c', 'aXXbYY', false],
    ['*a*a*a*a*b', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', false],
    ['mcp__files__*', 'mcp__files__read', true],
    ['exact_name', 'exact_name', true],
    ['exact_name', 'exact_names', false],
    ['Save_*', 'save_note', false],
  ])('%s against %s is %s', (pattern, text, expected) => {
    expect(matchGlob(pattern, text)).toBe(expected);
  });

  it('treats every character but * and ? literally: no regular expression is built from a pattern', () => {
    expect(matchGlob('a.c', 'abc')).toBe(false);
    expect(matchGlob('a.c', 'a.c')).toBe(true);
    expect(matchGlob('(a|b)', 'a')).toBe(false);
    expect(matchGlob('(a|b)', '(a|b)')).toBe(true);
    expect(matchGlob('[abc]', 'a')).toBe(false);
    expect(matchGlob('^x$', '^x$')).toBe(true);
    expect(matchGlob('.*', 'anything')).toBe(false);
    expect(matchGlob('\\d+', '12')).toBe(false);
    expect(matchGlob('\\d+', '\\d+')).toBe(true);
  });

  it('reads ? as one character, an emoji included', () => {
    expect(matchGlob('hi ?', 'hi 😀')).toBe(true);
    expect(matchGlob('hi ??', 'hi 😀')).toBe(false);
    expect(matchGlob('*😀', 'say 😀')).toBe(true);
  });

  it('stays fast on patterns that make backtracking regexes blow up', () => {
    const text = 'a'.repeat(5_000);
    const started = performance.now();
    expect(matchGlob('*a*a*a*a*a*a*a*b', text)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('says which patterns have wildcards', () => {
    expect(isGlob('delete_*')).toBe(true);
    expect(isGlob('note?')).toBe(true);
    expect(isGlob('http_request')).toBe(false);
  });
});
