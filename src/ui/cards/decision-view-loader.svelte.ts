import type * as CardView from './card-view.ts';

type CardViewModule = typeof CardView;

let loaded: CardViewModule | undefined = $state.raw();
let loading: Promise<CardViewModule> | undefined;

/**
 * Loads the decision view's code (card-view.ts): on demand, since most visits
 * show no card and the page's start-up JavaScript has a budget (npm run size).
 * The first screen loads it with its records when it shows a conversation or
 * the Approvals inbox (first-screen.ts), so a reload paints its cards in the
 * first render; a card loads it too. The promise is kept: one load, shared.
 */
export function loadCardView(): Promise<CardViewModule> {
  loading ??= import('./card-view.ts').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined; // The next card tries again.
      throw error;
    },
  );
  return loading;
}

/** The loaded module, or undefined until it is (reactive: a card re-renders once it arrives). */
export function cardViewModule(): CardViewModule | undefined {
  return loaded;
}
