import type { StoragePort } from '../../src/engine/ports.ts';
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
