import type { LockPort } from '../lock-port.ts';

/** Web Locks semantics in one process: FIFO waiters per name. Shared by engines that model separate tabs. */
export class MemoryLocks implements LockPort {
  readonly #tails = new Map<string, Promise<void>>();
  readonly #held = new Set<string>();

  async withLock<T>(name: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(name) ?? Promise.resolve();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => released);
    this.#tails.set(name, tail);
    await previous;
    this.#held.add(name);
    try {
      return await task();
    } finally {
      this.#held.delete(name);
      release();
      if (this.#tails.get(name) === tail) this.#tails.delete(name);
    }
  }

  async ifAvailable<T>(name: string, task: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }> {
    if (this.#held.has(name) || this.#tails.has(name)) return { acquired: false };
    return { acquired: true, value: await this.withLock(name, task) };
  }

  /** A tab dying releases its locks: tests call this for the "closed tab" engine. */
  isHeld(name: string): boolean {
    return this.#held.has(name);
  }
}
