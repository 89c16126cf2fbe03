import { z } from 'zod';

/**
 * A suggested passphrase: four words drawn uniformly and independently from a
 * word list, with the browser's CSPRNG. From the 7,776 words of the diceware
 * list zxcvbn ships (@zxcvbn-ts/language-common's `diceware-common`, the EFF
 * long list), a phrase carries 4 × log2(7,776) ≈ 51.7 bits: about 3.6 × 10^15
 * phrases, far past the year at 10^4 guesses a second that a new database
 * needs (≈ 3.2 × 10^11), even to an attacker who knows the list and the recipe.
 */
export const PHRASE_WORDS = 4;

/** Fills a one-element array with 32 random bits: the browser's CSPRNG, or a test's script. */
export type RandomSource = (into: Uint32Array<ArrayBuffer>) => Uint32Array<ArrayBuffer>;

/** The phrase's entropy in bits for a list of `size` words: what the form says. */
export function phraseBits(size: number): number {
  return PHRASE_WORDS * Math.log2(size);
}

/**
 * One index in [0, size), uniform: 32 random bits, drawn again while they
 * fall in the last, partial run of `size` (the modulo would favour the first
 * indexes otherwise).
 */
export function uniformIndex(size: number, random: RandomSource = (into) => crypto.getRandomValues(into)): number {
  if (!Number.isInteger(size) || size < 1 || size > 2 ** 32) throw new RangeError(`A word list of ${size} words cannot be drawn from.`);
  const limit = 2 ** 32 - (2 ** 32 % size);
  const draw = new Uint32Array(1);
  for (;;) {
    const value = random(draw)[0]!;
    if (value < limit) return value % size;
  }
}

/** Four words of `words`, space-separated. */
export function fourWordPhrase(words: readonly string[], random?: RandomSource): string {
  return Array.from({ length: PHRASE_WORDS }, () => words[uniformIndex(words.length, random)]!).join(' ');
}

/** The diceware list, loaded on demand with zxcvbn's common dictionaries. */
export async function dicewareWords(): Promise<readonly string[]> {
  return (await import('@zxcvbn-ts/language-common')).dictionary['diceware-common'];
}

/** `Suggest a passphrase`'s answer: the phrase, and the bits of entropy its drawing gives it. */
export const SuggestedPassphrase = z.object({ phrase: z.string().min(1), bits: z.number().positive() });
export type SuggestedPassphrase = z.infer<typeof SuggestedPassphrase>;

/** Four words drawn from the diceware list. */
export async function suggestPassphrase(random?: RandomSource): Promise<SuggestedPassphrase> {
  const words = await dicewareWords();
  return { phrase: fourWordPhrase(words, random), bits: phraseBits(words.length) };
}
