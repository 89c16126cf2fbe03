import type { LockPort } from './lock-port.ts';

/**
 * Runs `write` under the named lock if it is free now, then `then` with what
 * it wrote, under the same lock: how a press (a Send, a decision) stores what
 * it says and starts the run it causes with no second lock request, and no
 * other tab's write, in between. Resolves once `write` has: with its value and
 * `run`, the promise of the rest (which the caller tracks); undefined when the
 * lock was held. Rejects with `write`'s error, and then runs nothing.
 */
export async function writeUnderLock<T>(
  locks: LockPort,
  name: string,
  write: () => Promise<T>,
  then: (value: T) => Promise<void>,
): Promise<{ value: T; run: Promise<unknown> } | undefined> {
  let written!: { resolve: (value: T) => void; reject: (error: unknown) => void };
  const stored = new Promise<T>((resolve, reject) => (written = { resolve, reject }));
  const run = locks.ifAvailable(name, async () => {
    let value: T;
    try {
      value = await write();
    } catch (error) {
      written.reject(error);
      return;
    }
    written.resolve(value);
    await then(value);
  });
  // The write is stored before the lock is let go, so `stored` settles first when the lock was free.
  const acquired = await Promise.race([stored.then(() => true), run.then((attempt) => attempt.acquired)]);
  return acquired ? { value: await stored, run } : undefined;
}
