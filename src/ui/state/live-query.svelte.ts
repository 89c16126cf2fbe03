/** The part of an Observable (Dexie's `liveQuery`, or any other) this wrapper uses. */
export interface Subscribable<T> {
  subscribe(observer: { next: (value: T) => void; error: (error: unknown) => void }): { unsubscribe(): void };
}

/**
 * A live query as reactive state: `current` is the latest emitted value.
 *
 * Create it while a component initialises (or inside `$effect.root`): the
 * subscription lives in an effect, so it ends with its owner, and it is
 * re-made whenever reactive state read by `source` changes (a conversation id
 * prop, say). Until the new source emits, `current` is `initial` and `ready` is
 * false, so a view never shows one conversation's rows under another's title.
 *
 * Values are kept with `$state.raw`: each emission replaces the collection
 * wholesale, and deep proxies over thousands of records would only cost time.
 *
 * With `keepWhileLoading`, a new source leaves the previous value in `current`
 * (still with `ready` false) until it emits: for a list that is only narrowed or
 * lengthened (a filter typed, "Show more"), where blanking it would throw away the
 * reader's place for a moment.
 *
 * With `seed` (the same read, made before the app mounted: first-screen.ts), the
 * first source starts out `ready` with that value, so the first render shows the
 * records instead of an empty state; its subscription still runs, and its first
 * emission replaces the seed.
 */
export class LiveQuery<T> {
  #current: T = $state.raw() as T;
  #ready = $state(false);
  #error: unknown = $state.raw(undefined);

  constructor(
    source: () => Subscribable<T> | null,
    initial: T,
    { keepWhileLoading = false, seed }: { keepWhileLoading?: boolean; seed?: { value: T } } = {},
  ) {
    this.#current = seed ? seed.value : initial;
    this.#ready = seed !== undefined;
    let seeded = seed !== undefined;
    $effect(() => {
      const observable = source();
      if (seeded) {
        seeded = false;
      } else {
        if (!keepWhileLoading || !observable) this.#current = initial;
        this.#ready = false;
        this.#error = undefined;
      }
      if (!observable) return;
      const subscription = observable.subscribe({
        next: (value) => {
          this.#current = value;
          this.#ready = true;
          this.#error = undefined;
        },
        error: (error) => {
          this.#error = error;
          this.#ready = true;
        },
      });
      return () => subscription.unsubscribe();
    });
  }

  get current(): T {
    return this.#current;
  }

  /** Whether the current source has emitted (or failed) at least once. */
  get ready(): boolean {
    return this.#ready;
  }

  /** The current source's last error, if its latest event was one. */
  get error(): unknown {
    return this.#error;
  }
}
