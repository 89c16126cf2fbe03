import type { CallUsage } from './records/index.ts';

/*
 * Prices and costs, apart from the spending check so the page can show costs
 * without loading what the check needs (the request builder, the system prompt).
 */

/** A model's prices per million tokens, as the user entered them. */
export interface ModelPrice {
  model: string;
  input: number;
  output: number;
  /** For prompt tokens the endpoint read from its cache; absent: billed as input. */
  cached?: number;
}

const MILLION = 1_000_000;

/** The price entered for a model id, or undefined (then its calls cost nothing we know of). */
export function priceOf(prices: readonly ModelPrice[], model: string): ModelPrice | undefined {
  return prices.find((p) => p.model === model);
}

/** What one call cost at the entered prices; 0 when its model has none. */
export function costOf(usage: CallUsage, prices: readonly ModelPrice[]): number {
  const price = priceOf(prices, usage.model);
  if (!price) return 0;
  const cached = Math.min(usage.cached, usage.prompt);
  return ((usage.prompt - cached) * price.input + cached * (price.cached ?? price.input) + usage.completion * price.output) / MILLION;
}

/** Money in the prices' own unit, with enough digits for a fraction of a cent. */
export function formatMoney(n: number): string {
  return n !== 0 && Math.abs(n) < 1 ? n.toFixed(4) : n.toFixed(2);
}
