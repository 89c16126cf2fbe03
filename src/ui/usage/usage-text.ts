import type { CallUsage, ModelTotals } from '../../engine/records/index.ts';
import { costOf, formatMoney, priceOf, type ModelPrice } from '../../engine/cost.ts';
import { liveQuery, type Observable } from 'dexie';
import { pricesFor } from '../../model/known-prices.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { SETTINGS_KEY } from '../../storage/settings-constants.ts';

const count = (n: number) => n.toLocaleString('en');

/** `usageText` at the prices that apply: the user's saved ones, or the prefilled list while none are saved. */
export function usageTextAt(usage: readonly (CallUsage | ModelTotals)[], saved: readonly ModelPrice[] | undefined): string {
  return usageText(usage, pricesFor(saved === undefined ? undefined : { prices: saved }));
}

/**
 * Tokens in and out, and the cost when every model involved has a price:
 * `1,200 tokens in (1,000 cached) · 56 out · cost 0.0012`. A cost from some
 * priced and some unpriced calls would look complete and not be, so it is left out.
 */
export function usageText(usage: readonly (CallUsage | ModelTotals)[], prices: readonly ModelPrice[]): string {
  const sum = (pick: (u: CallUsage) => number) => usage.reduce((n, u) => n + pick(u), 0);
  const prompt = sum((u) => u.prompt);
  const cached = sum((u) => u.cached);
  const reasoning = sum((u) => u.reasoning);
  const parts = [
    `${count(prompt)} tokens in${cached > 0 ? ` (${count(cached)} cached)` : ''}`,
    `${count(sum((u) => u.completion))} out${reasoning > 0 ? ` (${count(reasoning)} reasoning)` : ''}`,
  ];
  const priced = usage.length > 0 && usage.every((u) => priceOf(prices, u.model) !== undefined);
  if (priced) parts.push(`cost ${formatMoney(usage.reduce((n, u) => n + costOf(u, prices), 0))}`);
  return parts.join(' · ');
}

/**
 * The prices saved in the settings row, live; undefined while none are saved
 * (or the row's list is not one a save writes: the prefilled prices show then,
 * and the worker, which reads the row through its schema, says what it makes of it).
 */
export function liveSavedPrices(db: PausepointDb): Observable<readonly ModelPrice[] | undefined> {
  return liveQuery(async () => savedPricesOf((await db.settings.get(SETTINGS_KEY))?.value));
}

export function savedPricesOf(row: unknown): readonly ModelPrice[] | undefined {
  if (typeof row !== 'object' || row === null) return undefined;
  const prices = (row as { prices?: unknown }).prices;
  if (!Array.isArray(prices)) return undefined;
  const number = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  const ok = prices.every((p: unknown) => {
    const { model, input, output, cached } = (typeof p === 'object' && p !== null ? p : {}) as Record<string, unknown>;
    return typeof model === 'string' && number(input) && number(output) && (cached === undefined || number(cached));
  });
  return ok ? (prices as ModelPrice[]) : undefined;
}

