import type { ClockPort } from '../clock-port.ts';
import type { IdPort } from '../id-port.ts';
import type { NetworkPort } from '../network-port.ts';

/** Time that moves only when told to; `sleep` resolves at once but advances time by the slept amount. */
export class FakeClock implements ClockPort {
  #now: number;
  readonly sleeps: number[] = [];

  constructor(start = Date.UTC(2026, 10, 29, 12)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  async sleep(ms: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    this.sleeps.push(ms);
    this.#now += ms;
  }
}

/** Real time, with sleeps that really wait (5 ms at most): a call waiting on a card lets the test decide it. */
export function realSleeps(): ClockPort {
  return {
    now: () => Date.now(),
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        signal.throwIfAborted();
        const timer = setTimeout(resolve, Math.min(ms, 5));
        signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
      }),
  };
}

export class SequentialIds implements IdPort {
  #next = 0;
  constructor(readonly prefix = 'id') {}
  uuid(): string {
    return `${this.prefix}-${(this.#next++).toString().padStart(6, '0')}`;
  }
}

/** A network that can be cut and restored; `whenOnline` waits for `goOnline()`. */
export class FakeNetwork implements NetworkPort {
  #online = true;
  #waiters: (() => void)[] = [];

  isOnline(): boolean {
    return this.#online;
  }

  goOffline(): void {
    this.#online = false;
  }

  goOnline(): void {
    this.#online = true;
    for (const wake of this.#waiters.splice(0)) wake();
  }

  whenOnline(signal: AbortSignal): Promise<void> {
    if (this.#online) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push(resolve);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
}
