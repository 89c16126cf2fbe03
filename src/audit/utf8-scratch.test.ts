import { describe, expect, it } from 'vitest';
import { utf8Scratch } from './utf8-scratch.ts';

const encode = (text: string) => new TextEncoder().encode(text);

describe('utf8Scratch', () => {
  it('gives exactly the UTF-8 bytes TextEncoder gives, lone surrogates as U+FFFD', () => {
    for (const text of ['', 'abc', 'Décidé — 日本語 🎉 \u0000', '€'.repeat(30_000), '\ud83d'.repeat(3), 'x\udc00y']) {
      expect(utf8Scratch(text)).toEqual(encode(text));
    }
  });

  it('stays right across sizes: a long text past the kept buffer, then a short one reuses what it had', () => {
    const long = '日'.repeat(100_000);
    expect(utf8Scratch(long)).toEqual(encode(long));
    const first = utf8Scratch('short one');
    expect(first).toEqual(encode('short one'));
    const second = utf8Scratch('next');
    expect(second).toEqual(encode('next'));
    // One buffer for both: the first view now shows the second text's bytes (valid only until the next call, as documented).
    expect(second.buffer).toBe(first.buffer);
  });
});
