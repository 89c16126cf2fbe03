/**
 * Aborts a response stream that stops sending. The openai SDK's `timeout`
 * only covers the wait for the response headers: once a stream has started,
 * nothing in the SDK notices an endpoint that goes quiet forever.
 */
export class StallWatchdog {
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly ms: number) {}

  /** Fires when `ms` pass between two `reset()` calls. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get fired(): boolean {
    return this.#controller.signal.aborted;
  }

  /** (Re)starts the countdown: call it whenever something arrives. */
  reset(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#controller.abort(new Error(`no data for ${this.ms} ms`)), this.ms);
  }

  stop(): void {
    clearTimeout(this.#timer);
  }
}
