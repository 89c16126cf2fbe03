/** Mutual exclusion across tabs (Web Locks in the browser). */
export interface LockPort {
  /** Runs `task` while holding the named lock, waiting for it if held elsewhere. */
  withLock<T>(name: string, task: () => Promise<T>): Promise<T>;
  /** Runs `task` only if the lock is free now; returns `{ acquired: false }` otherwise. */
  ifAvailable<T>(name: string, task: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }>;
}
