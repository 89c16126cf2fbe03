import { z } from 'zod';

/**
 * How long an offline attacker needs for a passphrase, and whether that is
 * enough to make a new sync database with it. The server holds the data key
 * wrapped under the passphrase (PBKDF2-SHA-256, 600,000 iterations), so
 * whoever reads the server can guess offline, as fast as their hardware runs
 * PBKDF2. The estimate is zxcvbn's (@zxcvbn-ts/core with the common and
 * English dictionaries: common passwords, words, names, keyboard patterns,
 * dates, l33t), loaded on demand: its dictionaries are about a megabyte.
 */

/**
 * Guesses a second on one GPU against PBKDF2-SHA-256 at 600,000 iterations:
 * the order of magnitude of hashcat's PBKDF2-HMAC-SHA256 rate on one current
 * GPU, scaled from its benchmark's 999 iterations to ours.
 */
export const GUESSES_PER_SECOND = 1e4;
/** One Julian year, 365.25 days. */
export const YEAR_SECONDS = 31_557_600;
/**
 * The least a new database's passphrase must take: a year of one GPU at 10^4
 * guesses a second, 10^4 × 31,557,600 ≈ 3.2 × 10^11 guesses (zxcvbn's
 * `guesses`). Below that, turning sync on for a new database is refused.
 */
export const MIN_GUESSES = GUESSES_PER_SECOND * YEAR_SECONDS;

export const PassphraseStrength = z.object({
  /** zxcvbn's estimate of the guesses an attacker who knows its dictionaries and patterns needs. */
  guesses: z.number().nonnegative(),
  /** At least `MIN_GUESSES`: a new sync database may be made with it. */
  strong: z.boolean(),
  /** log10 of `guesses`, for the meter (the line is at log10(MIN_GUESSES) ≈ 11.5). */
  log10: z.number(),
  /** What the meter says, e.g. `Too weak: one GPU offline guesses it in about 3 days.` */
  text: z.string(),
});
export type PassphraseStrength = z.infer<typeof PassphraseStrength>;

type Checker = { check(password: string, userInputs?: (string | number)[]): { guesses: number; guessesLog10: number; feedback: { warning: string | null } } };
let checker: Promise<Checker> | undefined;

function loadChecker(): Promise<Checker> {
  checker ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]).then(
    ([{ ZxcvbnFactory }, common, en]) =>
      new ZxcvbnFactory({ graphs: common.adjacencyGraphs, dictionary: { ...common.dictionary, ...en.dictionary }, translations: en.translations }),
  );
  return checker;
}

/**
 * Measures `passphrase`. `userInputs`: what else the form holds (user name,
 * server, database, device name), which a passphrase built from is weak.
 */
export async function passphraseStrength(passphrase: string, userInputs: readonly string[] = []): Promise<PassphraseStrength> {
  const result = (await loadChecker()).check(passphrase, userInputs.filter((input) => input.trim() !== ''));
  const strong = result.guesses >= MIN_GUESSES;
  const time = crackTimeText(result.guesses / GUESSES_PER_SECOND);
  const warning = result.feedback.warning ? ` ${result.feedback.warning}` : '';
  const text = strong ? `Strong enough: one GPU offline needs ${time} to guess it.` : `Too weak: one GPU offline guesses it in ${time}; a new sync database needs at least a year.${warning}`;
  return { guesses: result.guesses, strong, log10: result.guessesLog10, text };
}

const UNITS: [number, string][] = [
  [YEAR_SECONDS, 'year'],
  [YEAR_SECONDS / 12, 'month'],
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
];

/** `less than a minute`, `about 3 days`, `about 20 years`, `centuries` past 100 years. */
export function crackTimeText(seconds: number): string {
  if (seconds < 60) return 'less than a minute';
  if (seconds >= YEAR_SECONDS * 100) return 'centuries';
  for (const [size, unit] of UNITS) {
    if (seconds < size) continue;
    const count = Math.round(seconds / size);
    return `about ${count} ${unit}${count === 1 ? '' : 's'}`;
  }
  return 'less than a minute';
}
