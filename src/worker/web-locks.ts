import type { LockPort } from '../engine/lock-port.ts';

/**
 * The lock port over the Web Locks API. A lock is held for exactly as long as
 * its task's promise is pending, and the browser releases it when the tab (or
 * its worker) dies: that release is how other tabs learn the owner is gone.
 */
export class WebLocks implements LockPort {
  constructor(private readonly locks: LockManager = navigator.locks) {}

  withLock<T>(name: string, task: () => Promise<T>): Promise<T> {
    return this.locks.request(name, { mode: 'exclusive' }, task);
  }

  async ifAvailable<T>(name: string, task: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }> {
    return this.locks.request(name, { mode: 'exclusive', ifAvailable: true }, async (lock) => {
      if (!lock) return { acquired: false as const };
      return { acquired: true as const, value: await task() };
    });
  }
}
