import type { RecordedChatRequest, RecordedRequest } from './recorded-request.ts';

interface Waiter {
  count: number;
  resolve: (requests: RecordedChatRequest[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** Everything the server received, in order, plus waiting for chat requests to arrive. */
export class RequestLog {
  #all: RecordedRequest[] = [];
  #chat: RecordedChatRequest[] = [];
  #waiters = new Set<Waiter>();

  /** Copies, so a test holding an old list is not changed under it by later requests or reset(). */
  get all(): RecordedRequest[] {
    return [...this.#all];
  }

  get chat(): RecordedChatRequest[] {
    return [...this.#chat];
  }

  add(request: RecordedRequest): void {
    this.#all.push(request);
  }

  /** A chat request is also in `all`; it is added there by `add` first. */
  addChat(request: RecordedChatRequest): void {
    this.#chat.push(request);
    for (const waiter of this.#waiters) {
      if (this.#chat.length >= waiter.count) this.#settle(waiter, () => waiter.resolve(this.chat));
    }
  }

  /** How many requests hit exactly this path, this one included when already added. */
  countPath(path: string): number {
    return this.#all.filter((request) => request.path === path).length;
  }

  waitForChat(count: number, timeoutMs: number): Promise<RecordedChatRequest[]> {
    if (this.#chat.length >= count) return Promise.resolve(this.chat);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        count,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#settle(waiter, () =>
            reject(new Error(`fake-llm: waited ${timeoutMs} ms for ${count} chat requests, got ${this.#chat.length}`)),
          );
        }, timeoutMs),
      };
      this.#waiters.add(waiter);
    });
  }

  clear(): void {
    this.#all = [];
    this.#chat = [];
  }

  /** Fails every pending wait, so a test awaiting requests after close() does not hang. */
  rejectWaiters(reason: string): void {
    for (const waiter of this.#waiters) this.#settle(waiter, () => waiter.reject(new Error(reason)));
  }

  #settle(waiter: Waiter, finish: () => void): void {
    clearTimeout(waiter.timer);
    this.#waiters.delete(waiter);
    finish();
  }
}
