/**
 * The code a person reads on one device and types on the other, e.g.
 * `7KX3-MN9A-40RH`. It unlocks the pairing link (PBKDF2-stretched), so it never
 * travels with it.
 *
 * The alphabet is the 10 digits and 18 capital letters: every letter that is
 * easily taken for a digit or another letter is left out — O and Q (0), I and L
 * (1), S (5), Z (2), B (8), U (V). 28 symbols, 12 of them: 12 × log2(28) ≈ 57.7
 * bits, shown as three groups of four. What a person may type instead of a
 * symbol (lower case, a left-out look-alike, spaces or dashes anywhere) is
 * mapped to it by `normalisePairingCode`.
 */

export const PAIRING_CODE_ALPHABET = '0123456789ACDEFGHJKMNPRTVWXY';
export const PAIRING_CODE_LENGTH = 12;
const GROUP = 4;

/** The left-out look-alikes, upper-cased, and the symbol a person meant by each. */
const LOOK_ALIKES: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, { O: '0', Q: '0', I: '1', L: '1', S: '5', Z: '2', B: '8', U: 'V' }),
);
/** Spaces and every dash a keyboard or a copy might give. */
const SEPARATORS = /[\s\-_\u2010-\u2015\u2212]/gu;
const CANONICAL = new RegExp(`^[${PAIRING_CODE_ALPHABET}]{${GROUP}}(?:-[${PAIRING_CODE_ALPHABET}]{${GROUP}}){${PAIRING_CODE_LENGTH / GROUP - 1}}$`);

export function newPairingCode(): string {
  // Rejection sampling: bytes at or above the largest multiple of 28 below 256 are drawn again, so every symbol is equally likely.
  const limit = 256 - (256 % PAIRING_CODE_ALPHABET.length);
  let code = '';
  while (code.length < PAIRING_CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(PAIRING_CODE_LENGTH))) {
      if (byte < limit && code.length < PAIRING_CODE_LENGTH) code += PAIRING_CODE_ALPHABET[byte % PAIRING_CODE_ALPHABET.length];
    }
  }
  return grouped(code);
}

/**
 * What the person typed, in the form the code is shown and stretched in:
 * NFKC (full-width digits become digits), upper case, look-alikes mapped,
 * separators dropped, regrouped by four. Text that is not a code stays not one
 * (`isPairingCode` says which).
 */
export function normalisePairingCode(input: string): string {
  const symbols = Array.from(input.normalize('NFKC').toUpperCase().replace(SEPARATORS, ''), (char) => LOOK_ALIKES[char] ?? char).join('');
  return grouped(symbols);
}

/** Whether the text, once normalised, is a whole pairing code. */
export function isPairingCode(text: string): boolean {
  return CANONICAL.test(normalisePairingCode(text));
}

function grouped(symbols: string): string {
  return symbols.match(new RegExp(`.{1,${GROUP}}`, 'gu'))?.join('-') ?? '';
}
