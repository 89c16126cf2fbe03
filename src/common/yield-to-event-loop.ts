interface Scheduler {
  yield?: () => Promise<void>;
}

/**
 * Lets input, rendering and other tasks run before the caller continues.
 * `scheduler.yield()` (Chromium) resumes ahead of other queued work; elsewhere
 * a zero timeout does. Called between export pages so a long export never holds
 * the page for more than one page's work.
 */
export function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
