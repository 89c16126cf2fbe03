import type { Page } from '@playwright/test';

/** One IndexedDB transaction the page ran, as seen from the page. */
export interface IdbTransaction {
  stores: string;
  mode: string;
  /** performance.now() when the transaction was created, and when it completed (or aborted). */
  start: number;
  end: number | null;
  /** "store[.index] method(direction)" per request, in order, repeats collapsed ("… ×3"). */
  requests: string[];
  /** performance.now() when the first request's result reached the page. */
  firstResult: number | null;
  /** IDBCursor.continue()/advance() calls: one round trip to the database each. */
  cursorSteps: number;
}

declare global {
  interface Window {
    __benchIdb?: IdbTransaction[];
  }
}

/**
 * Runs in the page before its scripts (diagnostics only): wraps IndexedDB's
 * prototypes so every transaction the page's Dexie makes is logged with its
 * requests and its duration. The worker's reads are not seen (another global).
 */
function recordIdb(): void {
  const log: IdbTransaction[] = [];
  window.__benchIdb = log;
  const entries = new WeakMap<IDBTransaction, IdbTransaction>();
  const { transaction } = IDBDatabase.prototype;
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    const tx = transaction.apply(this, args);
    const entry: IdbTransaction = { stores: [...tx.objectStoreNames].join(','), mode: tx.mode, start: performance.now(), end: null, requests: [], firstResult: null, cursorSteps: 0 };
    log.push(entry);
    entries.set(tx, entry);
    const done = () => {
      entry.end = performance.now();
    };
    tx.addEventListener('complete', done);
    tx.addEventListener('abort', done);
    return tx;
  } as IDBDatabase['transaction'];

  const note = (tx: IDBTransaction, what: string) => {
    const entry = entries.get(tx);
    if (!entry) return;
    const last = entry.requests[entry.requests.length - 1];
    const repeat = last && /^(.*?)(?: ×(\d+))?$/.exec(last);
    if (repeat && repeat[1] === what) entry.requests[entry.requests.length - 1] = `${what} ×${Number(repeat[2] ?? 1) + 1}`;
    else entry.requests.push(what);
  };
  const methods = ['get', 'getAll', 'getAllKeys', 'getKey', 'count', 'openCursor', 'openKeyCursor', 'put', 'add', 'delete', 'clear'] as const;
  for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype] as unknown as Record<string, unknown>[]) {
    for (const method of methods) {
      const original = proto[method];
      if (typeof original !== 'function') continue;
      proto[method] = function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
        const store = this instanceof IDBIndex ? `${this.objectStore.name}.${this.name}` : this.name;
        const direction = method.startsWith('open') && typeof args[1] === 'string' ? `(${args[1]})` : '';
        const tx = this instanceof IDBIndex ? this.objectStore.transaction : this.transaction;
        note(tx, `${store} ${method}${direction}`);
        const request = (original as (...a: unknown[]) => IDBRequest).apply(this, args);
        const entry = entries.get(tx);
        if (entry && entry.firstResult === null) {
          request.addEventListener('success', () => (entry.firstResult ??= performance.now()), { once: true });
        }
        return request;
      };
    }
  }
  for (const method of ['continue', 'advance', 'continuePrimaryKey'] as const) {
    const original = IDBCursor.prototype[method] as (...a: unknown[]) => void;
    (IDBCursor.prototype as unknown as Record<string, unknown>)[method] = function (this: IDBCursor, ...args: unknown[]) {
      const entry = entries.get(this.request.transaction!);
      if (entry) entry.cursorSteps++;
      return original.apply(this, args);
    };
  }
}

export async function watchIdb(page: Page): Promise<void> {
  await page.addInitScript(recordIdb);
}

export async function idbTimeline(page: Page): Promise<IdbTransaction[]> {
  return page.evaluate(() => window.__benchIdb ?? []);
}

/** One line per transaction, in start order: when, how long, what it read. */
export function formatIdbTimeline(title: string, log: readonly IdbTransaction[], until?: number): string {
  const shown = until === undefined ? log : log.filter((t) => t.start <= until);
  const lines = shown.map(
    (t) =>
      `    ${t.start.toFixed(0).padStart(6)} ms  first result +${(t.firstResult === null ? '?' : (t.firstResult - t.start).toFixed(0)).padStart(4)} ms, ` +
      `done +${(t.end === null ? '?' : (t.end - t.start).toFixed(0)).padStart(4)} ms  ${t.mode.padEnd(9)} ` +
      `${t.requests.join('; ')}${t.cursorSteps ? ` — ${t.cursorSteps} cursor steps` : ''}`,
  );
  return [
    `${title} (the page's IndexedDB transactions from navigation start; a result "arrives" when the page's main thread handles it, so a busy main thread delays it):`,
    ...lines,
  ].join('\n');
}
