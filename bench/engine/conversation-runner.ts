import { TURNS } from './scripted-turns.ts';

/**
 * One implementation of the scripted conversation: ours over Dexie or memory,
 * or a peer framework. `playTurn` is the whole turn the table times — user
 * message, gated call, pause, the paused state read back, approval, the tool
 * run, the final answer — and throws when anything differs from the script.
 */
export interface ConversationRunner {
  readonly name: string;
  playTurn(turn: number): Promise<void>;
  /** After the last turn: checks the stored outcome and releases what the runner opened. */
  finish(turns: number): Promise<void>;
}

/** Builds a fresh runner over fresh storage; `label` keeps databases apart. */
export type RunnerFactory = (label: string) => Promise<ConversationRunner>;

export interface TurnTimings {
  name: string;
  /** Milliseconds per turn; index 0 is turn 1. */
  perTurn: number[];
  /**
   * This process's CPU time per turn (user + system, all its threads). On a
   * busy machine wall time also counts the waits for a core; this does not.
   */
  cpuPerTurn: number[];
}

const PROGRESS_EVERY = 50;

/** This process's CPU time so far (user + system, all its threads), in ms. */
const processCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export interface TimingHooks {
  /** The CPU time clock: the process's in Node; where none exists (a page), NaN. */
  cpuMs?: () => number;
  progress?: (line: string) => void;
}

/** Plays turns 1..n and times each one with `performance.now()`; progress goes to stderr (in Node). */
export async function timeTurns(
  runner: ConversationRunner,
  turns: number,
  { cpuMs = processCpuMs, progress = (line) => process.stderr.write(`${line}\n`) }: TimingHooks = {},
): Promise<TurnTimings> {
  const perTurn: number[] = [];
  const cpuPerTurn: number[] = [];
  const started = performance.now();
  for (let turn = 1; turn <= turns; turn++) {
    const cpu0 = cpuMs();
    const t0 = performance.now();
    await runner.playTurn(turn);
    perTurn.push(performance.now() - t0);
    cpuPerTurn.push(cpuMs() - cpu0);
    if (turn % PROGRESS_EVERY === 0) {
      const last = perTurn.slice(-PROGRESS_EVERY);
      const mean = last.reduce((a, b) => a + b, 0) / last.length;
      progress(`  ${runner.name}: turn ${turn}/${turns}, last ${PROGRESS_EVERY} turns ${mean.toFixed(2)} ms/turn, ${((performance.now() - started) / 1000).toFixed(1)} s so far`);
    }
  }
  await runner.finish(turns);
  return { name: runner.name, perTurn, cpuPerTurn };
}

/**
 * Turns of the throwaway conversation each runner plays before it is timed:
 * as many as the timed one. Dexie over fake-indexeddb keeps getting faster for
 * well over fifty turns (measured once: turns 1–20 after a 50-turn warm-up at
 * 13–15 ms, after a 200-turn one at 8.5–9 ms), and the targets are about the
 * steady cost of a turn, not the JIT's. The timed conversation still starts
 * empty, in storage of its own, and every turn of it is timed.
 */
export const WARM_UP_TURNS = TURNS;

/** Plays turns on a throwaway runner so module loading and first compilation are not timed. */
export async function warmUp(factory: RunnerFactory, turns = WARM_UP_TURNS): Promise<void> {
  const runner = await factory('warm-up');
  for (let turn = 1; turn <= turns; turn++) await runner.playTurn(turn);
  await runner.finish(turns);
}

/** One timing per turn from several runs of the same runner: each turn's median over the runs. */
export function medianPerTurn(runs: readonly TurnTimings[]): TurnTimings {
  const [first] = runs;
  if (!first) throw new Error('medianPerTurn needs at least one run.');
  const median = (pick: (run: TurnTimings) => number[], turn: number) => {
    const values = runs.map((run) => pick(run)[turn] ?? Number.NaN).sort((a, b) => a - b);
    const middle = values.length >> 1;
    return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
  };
  return {
    name: first.name,
    perTurn: first.perTurn.map((_, turn) => median((run) => run.perTurn, turn)),
    cpuPerTurn: first.cpuPerTurn.map((_, turn) => median((run) => run.cpuPerTurn, turn)),
  };
}
