/**
 * Calls `callback` when the main thread is idle (at the latest after
 * `timeoutMs`), for work that should be done before it is needed but must not
 * compete with what the user is waiting for. Returns a function that cancels it.
 */
export function whenIdle(callback: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => callback(), { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(callback, Math.min(timeoutMs, 200));
  return () => clearTimeout(timer);
}
