import type { CallUsage, ModelTotals } from '../../engine/records/index.ts';
import { costOf, type ModelPrice, priceOf } from '../../engine/spending.ts';
import { formatMoney } from '../../engine/spending-gate.ts';

const count = (n: number) => n.toLocaleString('en');

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
