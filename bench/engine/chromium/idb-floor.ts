import { EARLY, LATE } from '../scripted-turns.ts';

/**
 * bench:engine's floor in the page (BENCH_ENGINE_FLOOR=1): what the turn's
 * IndexedDB work costs with no engine and no Dexie around it. One conversation
 * is played with every transaction and request recorded (stores, mode,
 * durability, method, arguments); the log is then replayed with bare
 * IndexedDB calls on a fresh database, twice over:
 *  - awaited: each request waits for the one before it, the most a storage
 *    layer with a round trip per request could cost;
 *  - issued at once: a transaction's requests are all made before the first
 *    answers, one round trip per transaction and its commit, the least any
 *    storage layer making the same requests in the same transactions can cost.
 * The engine's figure sits between the two; a target below the second is out
 * of reach without fewer transactions.
 */

interface RecordedRequest {
  store: string;
  index?: string;
  method: string;
  args: unknown[];
}

interface RecordedTransaction {
  turn: number;
  stores: string[];
  mode: IDBTransactionMode;
  durability: IDBTransactionDurability;
  requests: RecordedRequest[];
}

const METHODS = ['get', 'getAll', 'getKey', 'getAllKeys', 'put', 'add', 'delete', 'clear', 'count', 'openCursor', 'openKeyCursor'] as const;

let recording: RecordedTransaction[] | undefined;
let turn = 0;
const recorded = new WeakMap<IDBTransaction, RecordedTransaction>();

/** A key range as plain data, and back (IDBKeyRange cannot be cloned); Dexie passes ranges bare or as getAll's `query` option. */
type StoredRange = { range: [unknown, unknown, boolean, boolean] };
const isRange = (value: unknown): value is IDBKeyRange => value instanceof Object && Object.getPrototypeOf(value) === IDBKeyRange.prototype;
function store(arg: unknown): unknown {
  if (isRange(arg)) return { range: [arg.lower, arg.upper, arg.lowerOpen, arg.upperOpen] } satisfies StoredRange;
  if (arg instanceof Object && Object.getPrototypeOf(arg) === Object.prototype && 'query' in arg) return { ...arg, query: store(arg.query) };
  return structuredClone(arg);
}
function restore(arg: unknown): unknown {
  if (arg instanceof Object && 'range' in arg) {
    const [lower, upper, lowerOpen, upperOpen] = (arg as StoredRange).range;
    return IDBKeyRange.bound(lower, upper, lowerOpen, upperOpen);
  }
  if (arg instanceof Object && 'query' in arg) return { ...arg, query: restore(arg.query) };
  return arg;
}

/**
 * Patches IndexedDB's prototypes once; records only inside `recordTurns`.
 * Call before the database is opened: Dexie binds the methods when it opens a connection.
 */
let patched = false;
export function recordTransactions(): void {
  if (patched) return;
  patched = true;
  const open = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    const transaction = open.apply(this, args);
    if (recording) {
      const entry: RecordedTransaction = { turn, stores: [...transaction.objectStoreNames], mode: transaction.mode, durability: transaction.durability, requests: [] };
      recording.push(entry);
      recorded.set(transaction, entry);
    }
    return transaction;
  };
  for (const prototype of [IDBObjectStore.prototype, IDBIndex.prototype]) {
    const methods = prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of METHODS) {
      const original = methods[method];
      if (typeof original !== 'function') continue;
      methods[method] = function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
        const objectStore = this instanceof IDBIndex ? this.objectStore : this;
        recorded.get(objectStore.transaction)?.requests.push({
          store: objectStore.name,
          ...(this instanceof IDBIndex ? { index: this.name } : {}),
          method,
          args: args.map(store),
        });
        return original.apply(this, args);
      };
    }
  }
}

/** Plays `turns` turns with `play`, recording every transaction and request they make. */
export async function recordTurns(turns: number, play: (turn: number) => Promise<void>): Promise<RecordedTransaction[]> {
  recordTransactions();
  const log: RecordedTransaction[] = [];
  recording = log;
  try {
    for (turn = 1; turn <= turns; turn++) await play(turn);
  } finally {
    recording = undefined;
  }
  return log;
}

function settled(request: IDBRequest): Promise<void> {
  return new Promise((resolve) => {
    request.onsuccess = () => resolve();
    // A replayed add can meet a key the recording's later put left behind; the request fails, the transaction goes on.
    request.onerror = (event) => {
      event.preventDefault();
      resolve();
    };
  });
}

/** Replays the log on `db` (a fresh database of the same schema); each turn's time, in ms. */
export async function replay(db: IDBDatabase, log: readonly RecordedTransaction[], { awaitEach }: { awaitEach: boolean }): Promise<number[]> {
  const perTurn: number[] = [];
  let start = performance.now();
  let current = log[0]?.turn;
  for (const entry of log) {
    if (entry.turn !== current) {
      perTurn.push(performance.now() - start);
      start = performance.now();
      current = entry.turn;
    }
    const transaction = db.transaction(entry.stores, entry.mode, { durability: entry.durability });
    const done = new Promise<void>((resolve) => {
      transaction.oncomplete = () => resolve();
      transaction.onabort = () => resolve();
    });
    for (const request of entry.requests) {
      const objectStore = transaction.objectStore(request.store);
      const target = (request.index ? objectStore.index(request.index) : objectStore) as unknown as Record<string, (...args: unknown[]) => IDBRequest>;
      const made = settled(target[request.method]!.apply(target, request.args.map(restore)));
      if (awaitEach) await made;
    }
    await done;
  }
  perTurn.push(performance.now() - start);
  return perTurn;
}

/** Per-turn means over turns 1–20 and 181–200, in ms. */
interface EarlyLate {
  early: number;
  late: number;
}

/** The floor's figures: each the median over the replays of one way. */
export interface FloorFigures {
  transactionsPerTurn: number;
  requestsPerTurn: number;
  replays: number;
  awaited: EarlyLate;
  atOnce: EarlyLate;
}

export function floorFigures(log: readonly RecordedTransaction[], turns: number, replays: { awaited: number[][]; atOnce: number[][] }): FloorFigures {
  const requests = log.reduce((sum, entry) => sum + entry.requests.length, 0);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const range = (runs: number[][], { from, to }: { from: number; to: number }) => median(runs.map((run) => mean(run.slice(from - 1, to))));
  const both = (runs: number[][]): EarlyLate => ({ early: range(runs, EARLY), late: range(runs, LATE) });
  return {
    transactionsPerTurn: log.length / turns,
    requestsPerTurn: requests / turns,
    replays: replays.awaited.length,
    awaited: both(replays.awaited),
    atOnce: both(replays.atOnce),
  };
}

/** The floor's lines for the bench's output. */
export function formatFloor(floor: FloorFigures): string[] {
  const row = (name: string, { early, late }: EarlyLate) =>
    `  ${name.padEnd(34)} ${`${early.toFixed(2)} ms`.padStart(10)} ${`${late.toFixed(2)} ms`.padStart(13)}`;
  return [
    `IndexedDB floor: the turn's ${floor.transactionsPerTurn.toFixed(2)} transactions and ${floor.requestsPerTurn.toFixed(2)} requests replayed bare (no engine, no Dexie), median of ${floor.replays} replays:`,
    `  ${'replay'.padEnd(34)} ${'turns 1–20'.padStart(10)} ${'turns 181–200'.padStart(13)}`,
    row('each request awaited', floor.awaited),
    row("a transaction's requests at once", floor.atOnce),
  ];
}
