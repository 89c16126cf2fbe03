import { describe, expect, it, vi } from 'vitest';
import { dicewareWords, fourWordPhrase, phraseBits, uniformIndex, type RandomSource } from './four-word-phrase.ts';
import { passphraseStrength } from './passphrase-strength.ts';

/** A random source that hands out `values` in turn. */
function scripted(...values: number[]): RandomSource {
  return (into) => {
    into[0] = values.shift()!;
    return into;
  };
}

describe('uniformIndex', () => {
  it('draws again in the last, partial run instead of folding it onto the first indexes', () => {
    // 2^32 = 6 × 715,827,882 + 4: the values from 4,294,967,292 up would favour indexes 0–3.
    const top = 2 ** 32 - 1;
    expect(uniformIndex(6, scripted(top, top - 3, 13))).toBe(1);
    expect(uniformIndex(6, scripted(2 ** 32 - 5))).toBe((2 ** 32 - 5) % 6);
  });

  it('takes a list of one word, and refuses none or a fraction', () => {
    expect(uniformIndex(1, scripted(123))).toBe(0);
    expect(() => uniformIndex(0)).toThrow(RangeError);
    expect(() => uniformIndex(2.5)).toThrow(RangeError);
  });

  it('draws from the browser’s CSPRNG unless told otherwise', () => {
    const spy = vi.spyOn(crypto, 'getRandomValues');
    try {
      expect(uniformIndex(7776)).toBeLessThan(7776);
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

describe('fourWordPhrase', { timeout: 60_000 }, () => {
  it('is four words of the 7,776-word diceware list: 51.7 bits', async () => {
    const words = await dicewareWords();
    expect(words).toHaveLength(7776);
    expect(new Set(words).size).toBe(7776);
    expect(phraseBits(words.length)).toBeCloseTo(51.7, 1);
    const phrase = fourWordPhrase(words);
    expect(phrase.split(' ')).toHaveLength(4);
    for (const word of phrase.split(' ')) expect(words).toContain(word);
  });

  it('makes phrases the strength check takes', async () => {
    const words = await dicewareWords();
    for (let i = 0; i < 10; i++) {
      const phrase = fourWordPhrase(words);
      expect((await passphraseStrength(phrase)).strong, phrase).toBe(true);
    }
  });
});
