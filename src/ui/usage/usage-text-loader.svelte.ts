import type { CallUsage, ModelTotals } from '../../engine/records/index.ts';
import type { ModelPrice } from '../../engine/cost.ts';
import type { PausepointDb } from '../../storage/db.ts';
import type * as UsageText from './usage-text.ts';

/**
 * The usage line's formatter and the saved prices in a chunk of their own,
 * like the markdown renderer: the page's start-up JavaScript has a budget, and
 * a new chat shows no usage. Views that show answers call `loadUsageText()` as
 * they open; until it has arrived (or if it fails to), no usage line shows.
 */
let formatter: typeof UsageText | undefined = $state.raw();
let saved: readonly ModelPrice[] | undefined = $state.raw();

/** Loads the formatter and follows the saved prices, once; a failed load is tried again by the next view. */
export function loadUsageText(db: PausepointDb): void {
  if (formatter) return;
  import('./usage-text.ts').then(
    (module) => {
      if (formatter) return;
      formatter = module;
      // For the page's lifetime: every open view shows costs at the prices saved in any tab.
      module.liveSavedPrices(db).subscribe({ next: (prices) => (saved = prices), error: (error: unknown) => console.warn('Pausepoint: reading prices failed', error) });
    },
    (error: unknown) => console.warn('Pausepoint: usage lines are not shown', error),
  );
}

/** The usage line at the prices that apply, once the formatter is there; else undefined. Reactive. */
export function usageLine(usage: readonly (CallUsage | ModelTotals)[]): string | undefined {
  return formatter?.usageTextAt(usage, saved);
}
