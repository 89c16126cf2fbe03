import type { StoragePort } from '../../../src/engine/storage-port.ts';

/**
 * bench:engine's trace in the page (BENCH_ENGINE_TRACE=1): where a turn's time
 * goes on Chromium's IndexedDB. Every storage-port call is wrapped in a
 * performance.measure, and every IndexedDB transaction the page opens is
 * counted by mode and timed from its creation to its `complete` event (the
 * round trip to the storage service and its commit). The engine awaits each
 * port call in turn, so the calls' times add up to the part of a turn spent
 * in storage; what they leave over is the engine's own work and scheduling.
 */

export interface PortCallCost {
  method: string;
  calls: number;
  ms: number;
}

export interface TransactionCost {
  mode: string;
  /** The stores it spanned, sorted and joined: which port call it was, in effect. */
  stores: string;
  count: number;
  ms: number;
}

export interface TurnTrace {
  /** Turns the figures are summed over (divide by it for per-turn figures). */
  turns: number;
  turnMs: number;
  calls: PortCallCost[];
  transactions: TransactionCost[];
  requests: { request: string; count: number }[];
}

const MARK = 'port:';

let tracing = false;
let turnsTraced = 0;
let turnMs = 0;
const calls = new Map<string, { calls: number; ms: number }>();
const transactions = new Map<string, { mode: string; stores: string; count: number; ms: number }>();
/** Requests by `store.method` (an index's under its store's name). */
const requests = new Map<string, number>();

const REQUEST_METHODS = ['get', 'getAll', 'getKey', 'getAllKeys', 'put', 'add', 'delete', 'clear', 'count', 'openCursor', 'openKeyCursor'] as const;

function countRequests(prototype: IDBObjectStore | IDBIndex, storeOf: (target: IDBObjectStore | IDBIndex) => string): void {
  const methods = prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of REQUEST_METHODS) {
    const original = methods[method];
    if (typeof original !== 'function') continue;
    methods[method] = function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
      if (tracing) {
        const key = `${storeOf(this)}.${method}`;
        requests.set(key, (requests.get(key) ?? 0) + 1);
      }
      return original.apply(this, args);
    };
  }
}

/**
 * Patches IDBDatabase.prototype.transaction once; counts only while a traced
 * turn runs. Call before the database is opened: Dexie binds the method when
 * it opens a connection.
 */
let patched = false;
export function traceTransactions(): void {
  if (patched) return;
  patched = true;
  countRequests(IDBObjectStore.prototype, (store) => (store as IDBObjectStore).name);
  countRequests(IDBIndex.prototype, (index) => `${(index as IDBIndex).objectStore.name}[${(index as IDBIndex).name}]`);
  const open = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    const transaction = open.apply(this, args);
    if (!tracing) return transaction;
    const t0 = performance.now();
    const stores = [...transaction.objectStoreNames].sort().join('+');
    const key = `${transaction.mode} ${stores}`;
    const done = () => {
      const cost = transactions.get(key) ?? { mode: transaction.mode, stores, count: 0, ms: 0 };
      transactions.set(key, { ...cost, count: cost.count + 1, ms: cost.ms + performance.now() - t0 });
    };
    transaction.addEventListener('complete', done);
    transaction.addEventListener('abort', done);
    return transaction;
  };
}

/** The storage port with every call measured (a no-op wrapper while no traced turn runs). */
export function tracedStorage(storage: StoragePort): StoragePort {
  return new Proxy(storage, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      const method = String(key);
      return async (...args: unknown[]) => {
        if (!tracing) return Reflect.apply(value, target, args);
        const t0 = performance.now();
        try {
          return await Reflect.apply(value, target, args);
        } finally {
          const measure = performance.measure(`${MARK}${method}`, { start: t0 });
          const cost = calls.get(method) ?? { calls: 0, ms: 0 };
          calls.set(method, { calls: cost.calls + 1, ms: cost.ms + measure.duration });
        }
      };
    },
  });
}

/** Times `play` as one traced turn. */
export async function traceTurn(play: () => Promise<void>): Promise<void> {
  tracing = true;
  const t0 = performance.now();
  try {
    await play();
  } finally {
    turnMs += performance.now() - t0;
    turnsTraced++;
    tracing = false;
  }
}

/** What the traced turns cost, then a fresh start. */
export function takeTrace(): TurnTrace {
  const trace: TurnTrace = {
    turns: turnsTraced,
    turnMs,
    calls: [...calls].map(([method, cost]) => ({ method, ...cost })).sort((a, b) => b.ms - a.ms),
    transactions: [...transactions.values()].sort((a, b) => b.ms - a.ms),
    requests: [...requests].map(([request, count]) => ({ request, count })).sort((a, b) => b.count - a.count),
  };
  requests.clear();
  calls.clear();
  transactions.clear();
  turnsTraced = 0;
  turnMs = 0;
  performance.clearMeasures();
  return trace;
}

/** The trace as lines for the bench's output, per turn. */
export function formatTrace(trace: TurnTrace, label: string): string[] {
  const n = Math.max(trace.turns, 1);
  const per = (value: number) => (value / n).toFixed(2);
  const storageMs = trace.calls.reduce((sum, cost) => sum + cost.ms, 0);
  const readwrite = trace.transactions.filter((t) => t.mode === 'readwrite').reduce((sum, t) => sum + t.count, 0);
  const readonly = trace.transactions.filter((t) => t.mode === 'readonly').reduce((sum, t) => sum + t.count, 0);
  const lines = [
    `${label}: ${per(trace.turnMs)} ms/turn over ${trace.turns} turns; storage port calls ${per(storageMs)} ms of it; ` +
      `IndexedDB transactions per turn: ${per(readwrite)} readwrite, ${per(readonly)} readonly`,
    '  port call                  calls/turn   ms/turn   ms/call',
  ];
  for (const cost of trace.calls) {
    lines.push(`  ${cost.method.padEnd(26)} ${per(cost.calls).padStart(10)} ${per(cost.ms).padStart(9)} ${(cost.ms / cost.calls).toFixed(2).padStart(9)}`);
  }
  lines.push('  transaction (mode, stores)                                          count/turn   ms/turn   ms/each');
  for (const cost of trace.transactions) {
    lines.push(
      `  ${`${cost.mode} ${cost.stores}`.padEnd(67)} ${per(cost.count).padStart(10)} ${per(cost.ms).padStart(9)} ${(cost.ms / cost.count).toFixed(2).padStart(9)}`,
    );
  }
  const total = trace.requests.reduce((sum, r) => sum + r.count, 0);
  lines.push(`  requests per turn: ${per(total)}: ${trace.requests.map((r) => `${r.request} ${per(r.count)}`).join(', ')}`);
  return lines;
}
