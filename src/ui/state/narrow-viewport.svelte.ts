/** The phone layout's breakpoint: app.css uses the same width. */
export const NARROW_QUERY = '(max-width: 640px)';

/**
 * Whether the viewport is phone-sized, as reactive state. Svelte's own
 * `MediaQuery` calls `matchMedia` unguarded, which jsdom lacks: there (and in
 * any browser without it) the layout is the desktop one.
 *
 * Made while a component initialises (App.svelte): it listens through an
 * effect of that component, so the listener goes when the component does.
 * Not `createSubscriber`: importing anything from `svelte/reactivity` at
 * start-up brings its `SvelteMap` along (the lazy chunks that use it share
 * that module), about 0.3 kB gzip of the page's start-up budget.
 */
export class NarrowViewport {
  #matches = $state(false);

  constructor(win: Pick<Window, 'matchMedia'> | undefined = typeof window === 'undefined' ? undefined : window) {
    const query = typeof win?.matchMedia === 'function' ? win.matchMedia(NARROW_QUERY) : null;
    this.#matches = query?.matches ?? false;
    $effect(() => {
      if (!query) return;
      const update = () => (this.#matches = query.matches);
      // A change between construction and this effect is read here.
      update();
      query.addEventListener('change', update);
      return () => query.removeEventListener('change', update);
    });
  }

  get current(): boolean {
    return this.#matches;
  }
}
