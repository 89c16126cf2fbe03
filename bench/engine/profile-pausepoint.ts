// @ts-expect-error fake-indexeddb's types are not reachable through its exports map
import FDBTransaction from 'fake-indexeddb/lib/FDBTransaction';
import type { StoragePort } from '../../src/engine/storage-port.ts';
import { MemoryStorage } from '../../src/engine/testing/memory-storage.ts';
import { warmUp } from './conversation-runner.ts';
import { benchDexie, pausepointDexie, pausepointMemory, pausepointOver } from './run-pausepoint.ts';
import { EARLY, LATE, TURNS } from './scripted-turns.ts';

/**
 * `npx tsx bench/engine/profile-pausepoint.ts [dexie|memory]`: where a turn of
 * our engine spends its time. The storage port is wrapped so every call is
 * counted and timed; the engine awaits each call in turn, so these wall times
 * add up to the part of the turn spent in storage. What they leave over is the
 * engine's own work (buildRequest, zod, the loop) and scheduling.
 */
type Method = keyof StoragePort;
interface Cost {
  calls: number;
  ms: number;
}

/** Per turn, per method. */
const costs = new Map<number, Map<Method, Cost>>();
let currentTurn = 0;

/**
 * IndexedDB's work, counted inside fake-indexeddb: each request, and each
 * transaction's start, is a task of its own there (as a round trip to the
 * browser's database process is in Chromium), so these counts are the cost
 * model fewer-writes work aims at.
 */
const idb = new Map<number, { transactions: number; requests: number }>();
function countIdb(kind: 'transactions' | 'requests'): void {
  const turn = idb.get(currentTurn) ?? { transactions: 0, requests: 0 };
  turn[kind]++;
  idb.set(currentTurn, turn);
}
const transaction = (FDBTransaction as { prototype: Record<string, (...args: unknown[]) => unknown> }).prototype;
const execRequest = transaction._execRequestAsync!;
const start = transaction._start!;
transaction._execRequestAsync = function (this: unknown, ...args: unknown[]) {
  countIdb('requests');
  return execRequest.apply(this, args);
};
transaction._start = function (this: { _started: boolean }, ...args: unknown[]) {
  if (!this._started) countIdb('transactions');
  return start.apply(this, args);
};

function record(method: Method, ms: number): void {
  let turn = costs.get(currentTurn);
  if (!turn) costs.set(currentTurn, (turn = new Map()));
  const cost = turn.get(method) ?? { calls: 0, ms: 0 };
  turn.set(method, { calls: cost.calls + 1, ms: cost.ms + ms });
}

function timed(storage: StoragePort): StoragePort {
  return new Proxy(storage, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const t0 = performance.now();
        try {
          return await Reflect.apply(value, target, args);
        } finally {
          record(key as Method, performance.now() - t0);
        }
      };
    },
  });
}

function report(turnMs: readonly number[], range: { from: number; to: number }): void {
  const turns = range.to - range.from + 1;
  const total = new Map<Method, Cost>();
  for (let turn = range.from; turn <= range.to; turn++) {
    for (const [method, cost] of costs.get(turn) ?? []) {
      const sum = total.get(method) ?? { calls: 0, ms: 0 };
      total.set(method, { calls: sum.calls + cost.calls, ms: sum.ms + cost.ms });
    }
  }
  const whole = turnMs.slice(range.from - 1, range.to).reduce((a, b) => a + b, 0) / turns;
  const rows = [...total].sort((a, b) => b[1].ms - a[1].ms);
  const storage = rows.reduce((sum, [, cost]) => sum + cost.ms, 0) / turns;
  const calls = rows.reduce((sum, [, cost]) => sum + cost.calls, 0) / turns;
  console.log(`\nturns ${range.from}–${range.to}: ${whole.toFixed(2)} ms/turn; ${calls.toFixed(0)} storage calls take ${storage.toFixed(2)} ms of it`);
  let transactions = 0;
  let requests = 0;
  for (let turn = range.from; turn <= range.to; turn++) {
    transactions += idb.get(turn)?.transactions ?? 0;
    requests += idb.get(turn)?.requests ?? 0;
  }
  if (requests > 0) console.log(`  IndexedDB: ${(transactions / turns).toFixed(1)} transactions, ${(requests / turns).toFixed(1)} requests per turn`);
  for (const [method, cost] of rows) {
    const perTurn = cost.calls / turns;
    const ms = cost.ms / turns;
    console.log(`  ${method.padEnd(22)} ${perTurn.toFixed(1).padStart(5)} calls/turn  ${ms.toFixed(2).padStart(7)} ms/turn  ${((cost.ms / cost.calls) * 1000).toFixed(0).padStart(6)} µs/call`);
  }
}

const which = process.argv[2] === 'memory' ? 'memory' : 'dexie';
await warmUp(which === 'memory' ? pausepointMemory : pausepointDexie);
const { storage, close } = which === 'memory' ? { storage: new MemoryStorage(), close: async () => {} } : await benchDexie('profile');
const runner = await pausepointOver(`Pausepoint + ${which}`, timed(storage), close);

const turnMs: number[] = [];
for (let turn = 1; turn <= TURNS; turn++) {
  currentTurn = turn;
  const t0 = performance.now();
  await runner.playTurn(turn);
  turnMs.push(performance.now() - t0);
}
currentTurn = 0;
await runner.finish(TURNS);
report(turnMs, EARLY);
report(turnMs, LATE);
