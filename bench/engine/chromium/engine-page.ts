/**
 * Bundled into a page by run-in-chromium.ts: bench:engine's own Pausepoint
 * runner (pausepoint-runner.ts, the same scripted conversation and turn) over
 * Dexie on Chromium's real IndexedDB rather than fake-indexeddb. The page
 * plays the whole conversation itself and hands back the timings, so no
 * round trip to the bench falls inside a turn.
 */
import { PausepointDb } from '../../../src/storage/db.ts';
import { DexieStorage } from '../../../src/storage/dexie-storage.ts';
import { timeTurns, warmUp, type RunnerFactory, type TurnTimings } from '../conversation-runner.ts';
import { pausepointOver } from '../pausepoint-runner.ts';
import { EARLY, LATE, TURNS } from '../scripted-turns.ts';
import { floorFigures, recordTransactions, recordTurns, replay, type FloorFigures } from './idb-floor.ts';
import { formatTrace, takeTrace, traceTransactions, traceTurn, tracedStorage } from './port-trace.ts';

export const CHROMIUM_RUNNER_NAME = 'Pausepoint + Dexie, Chromium IDB';

/** A fresh database per conversation, as in Node; deleted when the runner finishes. */
const chromiumDexie: RunnerFactory = async (label) => {
  const db = new PausepointDb(`bench-${label}-${Date.now()}`);
  await db.open();
  return pausepointOver(CHROMIUM_RUNNER_NAME, new DexieStorage(db), () => db.delete());
};

export interface EngineBenchPage {
  warmUp(): Promise<void>;
  /** One timed conversation of TURNS turns. A page has no CPU clock of its process: `cpuPerTurn` is NaN. */
  timed(label: string): Promise<TurnTimings>;
  /** One untimed conversation with its early and late turns traced (port-trace.ts): the trace's lines. */
  traced(label: string): Promise<string[]>;
  /** One untimed conversation recorded, its IndexedDB requests replayed bare `replays` times each way (idb-floor.ts). */
  floor(label: string, replays: number): Promise<FloorFigures>;
}

declare global {
  interface Window {
    benchEngine?: EngineBenchPage;
  }
}

window.benchEngine = {
  warmUp: () => warmUp(chromiumDexie),
  timed: async (label) => timeTurns(await chromiumDexie(label), TURNS, { cpuMs: () => Number.NaN, progress: (line) => console.log(line) }),
  traced: async (label) => {
    traceTransactions();
    const db = new PausepointDb(`bench-${label}-${Date.now()}`);
    await db.open();
    const runner = await pausepointOver(CHROMIUM_RUNNER_NAME, tracedStorage(new DexieStorage(db)), () => db.delete());
    const lines: string[] = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      const range = [EARLY, LATE].find(({ from, to }) => turn >= from && turn <= to);
      if (!range) {
        await runner.playTurn(turn);
        continue;
      }
      await traceTurn(() => runner.playTurn(turn));
      if (turn === range.to) lines.push(...formatTrace(takeTrace(), `traced turns ${range.from}–${range.to}`));
    }
    await runner.finish(TURNS);
    return lines;
  },
  floor: async (label, replays) => {
    recordTransactions();
    const name = `bench-${label}-${Date.now()}`;
    const db = new PausepointDb(name);
    await db.open();
    const runner = await pausepointOver(CHROMIUM_RUNNER_NAME, new DexieStorage(db), () => db.delete());
    const log = await recordTurns(TURNS, (turn) => runner.playTurn(turn));
    await runner.finish(TURNS);
    const runs = { awaited: [] as number[][], atOnce: [] as number[][] };
    for (let run = 1; run <= replays; run++) {
      for (const awaitEach of [true, false]) {
        // A fresh database of the same schema for each replay: Dexie creates it, the replay uses a bare connection.
        const fresh = new PausepointDb(`${name}-replay-${run}-${awaitEach}`);
        await fresh.open();
        const bare = fresh.backendDB();
        (awaitEach ? runs.awaited : runs.atOnce).push(await replay(bare, log, { awaitEach }));
        await fresh.delete();
      }
    }
    return floorFigures(log, TURNS, runs);
  },
};
