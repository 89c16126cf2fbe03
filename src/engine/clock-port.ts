/** Time: `Date.now` and timers in the browser, a fake clock in tests. */
export interface ClockPort {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when aborted. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}
