import { describe, expect, it } from 'vitest';
import { crackTimeText, MIN_GUESSES, passphraseStrength } from './passphrase-strength.ts';

describe('passphraseStrength', { timeout: 60_000 }, () => {
  it('draws the line at a year of one GPU at 10^4 guesses a second', () => {
    expect(MIN_GUESSES).toBe(315_576_000_000);
  });

  it('refuses one character, a common password, and a word with digits', async () => {
    for (const weak of ['a', 'password', 'password1234', 'Tr0ub4dor']) {
      const strength = await passphraseStrength(weak);
      expect(strength.strong, weak).toBe(false);
      expect(strength.guesses).toBeLessThan(MIN_GUESSES);
      expect(strength.text).toMatch(/^Too weak: one GPU offline guesses it in .+; a new sync database needs at least a year\./);
    }
  });

  it('takes four ordinary words and a long sentence', async () => {
    for (const strong of ['correct horse battery staple', 'a long passphrase for the tests']) {
      const strength = await passphraseStrength(strong);
      expect(strength.strong, strong).toBe(true);
      expect(strength.guesses).toBeGreaterThanOrEqual(MIN_GUESSES);
      expect(strength.log10).toBeGreaterThanOrEqual(Math.log10(MIN_GUESSES));
      expect(strength.text).toMatch(/^Strong enough: one GPU offline needs .+ to guess it\.$/);
    }
  });

  it('counts what the form holds against it: a passphrase made of the user name and device name is weak', async () => {
    expect((await passphraseStrength('adalovelace mylaptop')).strong).toBe(true);
    expect((await passphraseStrength('adalovelace mylaptop', ['adalovelace', 'mylaptop'])).strong).toBe(false);
  });
});

describe('crackTimeText', () => {
  it('says the time in the largest unit that fits, rounded', () => {
    expect(crackTimeText(5)).toBe('less than a minute');
    expect(crackTimeText(60)).toBe('about 1 minute');
    expect(crackTimeText(3 * 86_400)).toBe('about 3 days');
    expect(crackTimeText(2 * 31_557_600)).toBe('about 2 years');
    expect(crackTimeText(1e12)).toBe('centuries');
  });
});
