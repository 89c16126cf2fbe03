import { createSubscriber } from 'svelte/reactivity';

/** The phone layout's breakpoint: app.css uses the same width. */
export const NARROW_QUERY = '(max-width: 640px)';

/**
 * Whether the viewport is phone-sized, as reactive state. Svelte's own
 * `MediaQuery` calls `matchMedia` unguarded, which jsdom lacks: there (and in
 * any browser without it) the layout is the desktop one.
 */
export class NarrowViewport {
  readonly #query: MediaQueryList | null;
  readonly #subscribe: () => void;

  constructor(win: Pick<Window, 'matchMedia'> | undefined = typeof window === 'undefined' ? undefined : window) {
    this.#query = typeof win?.matchMedia === 'function' ? win.matchMedia(NARROW_QUERY) : null;
    this.#subscribe = createSubscriber((update) => {
      this.#query?.addEventListener('change', update);
      return () => this.#query?.removeEventListener('change', update);
    });
  }

  get current(): boolean {
    this.#subscribe();
    return this.#query?.matches ?? false;
  }
}
