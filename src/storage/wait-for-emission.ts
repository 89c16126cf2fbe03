import type { Observable } from 'dexie';

/**
 * Subscribes to a live query and resolves with the first value that satisfies
 * `matches`, then unsubscribes. For tests; rejects after `timeoutMs` so a live
 * query that never updates fails the test instead of hanging it.
 */
export function waitForEmission<T>(observable: Observable<T>, matches: (value: T) => boolean, timeoutMs = 2_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.unsubscribe();
      reject(new Error(`No matching emission within ${timeoutMs} ms.`));
    }, timeoutMs);
    const subscription = observable.subscribe({
      next(value) {
        if (!matches(value)) return;
        clearTimeout(timer);
        // Unsubscribing inside `next` is allowed; deferring keeps the subscription defined.
        queueMicrotask(() => subscription.unsubscribe());
        resolve(value);
      },
      error(error: unknown) {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    });
  });
}
