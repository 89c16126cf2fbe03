import type { ModelPrice } from '../engine/cost.ts';

/**
 * A few well-known models' list prices in US dollars per million tokens, as
 * their providers published them when this list was written. Settings shows
 * them prefilled, with this date, until the user saves their own: prices
 * change, and only the user's provider knows what the user pays.
 */
export const KNOWN_PRICES_AS_OF = '2025-10';

export const KNOWN_PRICES: readonly ModelPrice[] = [
  { model: 'gpt-4o-mini', input: 0.15, output: 0.6, cached: 0.075 },
  { model: 'gpt-4o', input: 2.5, output: 10, cached: 1.25 },
  { model: 'claude-sonnet-4-5', input: 3, output: 15, cached: 0.3 },
  { model: 'gemini-2.5-flash', input: 0.3, output: 2.5 },
];

/** The prices that apply: the user's own once saved, the prefilled list until then. */
export function pricesFor(settings: { prices?: readonly ModelPrice[] } | undefined): readonly ModelPrice[] {
  return settings?.prices ?? KNOWN_PRICES;
}
