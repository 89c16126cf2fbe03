import { priceOf, type ModelPrice } from '../engine/cost.ts';
import { pricesFor } from '../model/known-prices.ts';
import { DEFAULT_MAX_TOKENS } from '../storage/settings-constants.ts';
import { MAX_PRICES } from '../storage/settings-repo.ts';

/** What a restore kept of this browser's because the backup's was looser: said in the restore's summary. */
export type KeptSetting =
  /** A limit: the value kept here, and the backup's (null: it had none). */
  | { setting: LimitSetting; kept: number; backup: number | null }
  /** A model's price per million tokens, higher here (or missing in the backup). */
  | { setting: 'price'; model: string };

export type LimitSetting = 'maxTokens' | 'tokenLimit' | 'costLimit' | 'dailyCostLimit';

/** The settings that bound what the model may spend. */
export interface SpendingBounds {
  maxTokens?: number | undefined;
  tokenLimit?: number | undefined;
  costLimit?: number | undefined;
  dailyCostLimit?: number | undefined;
  prices?: ModelPrice[] | undefined;
}

const LIMITS = ['tokenLimit', 'costLimit', 'dailyCostLimit'] as const;

/**
 * The backup's settings with every spending bound at least as strict as this
 * browser's: a restore writes settings, and a crafted (or old) file must not
 * drop a token or money limit, raise Max tokens per answer, or lower or drop a
 * price (a price of 0 makes every money limit blind). For each bound the
 * stricter value wins — the lower limit (none is the loosest), the higher
 * price, field by field — and each one kept from here is listed, so the
 * summary can say so and the person can loosen it in Settings on purpose.
 *
 * `current` is this browser's saved settings. Their bounds are the ones in
 * effect here: an absent Max tokens per answer is DEFAULT_MAX_TOKENS, absent
 * prices are the prefilled ones. With no saved settings (undefined) there is
 * nothing here to loosen — this browser has no endpoint to call yet — and the
 * backup's settings are its first setup, written as they are.
 */
export function stricterSettings<T extends SpendingBounds>(backup: T, current: SpendingBounds | undefined): { settings: T; kept: KeptSetting[] } {
  if (current === undefined) return { settings: backup, kept: [] };
  const settings: T = { ...backup };
  const kept: KeptSetting[] = [];

  for (const setting of LIMITS) {
    const here = current[setting];
    const theirs = backup[setting];
    if (here !== undefined && (theirs === undefined || theirs > here)) {
      settings[setting] = here;
      kept.push({ setting, kept: here, backup: theirs ?? null });
    }
  }

  const hereMax = current.maxTokens ?? DEFAULT_MAX_TOKENS;
  const theirMax = backup.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (theirMax > hereMax) {
    // Absent means the default, as here.
    if (current.maxTokens === undefined) delete settings.maxTokens;
    else settings.maxTokens = hereMax;
    kept.push({ setting: 'maxTokens', kept: hereMax, backup: theirMax });
  }

  const prices = stricterPrices(pricesFor(backup), pricesFor(current));
  if (prices.raised.length > 0) {
    settings.prices = prices.list;
    for (const model of prices.raised) kept.push({ setting: 'price', model });
  }
  return { settings, kept };
}

/**
 * Each model's price at least as high as here; `raised` names the models whose
 * price here was kept. The models priced here come first, so that a list cut
 * to MAX_PRICES keeps every price this browser had.
 */
function stricterPrices(theirs: readonly ModelPrice[], here: readonly ModelPrice[]): { list: ModelPrice[]; raised: string[] } {
  const list: ModelPrice[] = [];
  const raised: string[] = [];
  const seen = new Set<string>();
  for (const price of here) {
    if (seen.has(price.model)) continue;
    // The first entry of a model is the one that prices it (priceOf).
    seen.add(price.model);
    const their = priceOf(theirs, price.model);
    const higher = their === undefined ? price : higherPrice(their, price);
    if (higher !== their) raised.push(price.model);
    list.push(higher);
  }
  for (const price of theirs) {
    if (seen.has(price.model)) continue;
    seen.add(price.model);
    list.push(price);
  }
  return { list: list.slice(0, MAX_PRICES), raised };
}

/** `theirs` itself when no field of it is lower than `here`'s; else each field at the higher of the two. */
function higherPrice(theirs: ModelPrice, here: ModelPrice): ModelPrice {
  // An absent cached price bills cached tokens as input (cost.ts).
  const theirCached = theirs.cached ?? theirs.input;
  const hereCached = here.cached ?? here.input;
  if (theirs.input >= here.input && theirs.output >= here.output && theirCached >= hereCached) return theirs;
  const input = Math.max(theirs.input, here.input);
  const cached = Math.max(theirCached, hereCached);
  return { model: theirs.model, input, output: Math.max(theirs.output, here.output), ...(cached === input ? {} : { cached }) };
}
