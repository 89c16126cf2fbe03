import { SvelteMap } from 'svelte/reactivity';

/**
 * What the settings form's API key field holds, per endpoint origin: the key
 * typed there, else the key saved for it, else nothing. A key typed for one
 * origin is never shown — and so never tested or saved — for another: switching
 * provider or base URL shows the new origin's own key, and switching back shows
 * the first one again. A base URL that has no origin (half typed) has a field of
 * its own, `NO_ORIGIN`, whose key no real origin ever inherits.
 */
export class ApiKeyDrafts {
  readonly #typed = new SvelteMap<string, string>();
  /** Replaced whole, never changed in place. */
  #saved: ReadonlyMap<string, string> | undefined = $state.raw();

  constructor(saved?: ReadonlyMap<string, string>) {
    this.#saved = saved;
  }

  /** The keys saved in this browser (they arrive after the form opens); what was typed meanwhile stays. */
  loaded(saved: ReadonlyMap<string, string>): void {
    this.#saved = saved;
  }

  keyFor(origin: string | undefined): string {
    const slot = origin ?? NO_ORIGIN;
    return this.#typed.get(slot) ?? (origin === undefined ? '' : (this.#saved?.get(origin) ?? ''));
  }

  type(origin: string | undefined, key: string): void {
    this.#typed.set(origin ?? NO_ORIGIN, key);
  }
}

/** Not an origin any URL has: origins are `scheme://host[:port]`. */
const NO_ORIGIN = '';
