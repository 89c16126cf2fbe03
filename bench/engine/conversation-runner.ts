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
}

const PROGRESS_EVERY = 50;

/** Plays turns 1..n and times each one with `performance.now()`; progress goes to stderr. */
export async function timeTurns(runner: ConversationRunner, turns: number): Promise<TurnTimings> {
  const perTurn: number[] = [];
  const started = performance.now();
  for (let turn = 1; turn <= turns; turn++) {
    const t0 = performance.now();
    await runner.playTurn(turn);
    perTurn.push(performance.now() - t0);
    if (turn % PROGRESS_EVERY === 0) {
      const last = perTurn.slice(-PROGRESS_EVERY);
      const mean = last.reduce((a, b) => a + b, 0) / last.length;
      process.stderr.write(`  ${runner.name}: turn ${turn}/${turns}, last ${PROGRESS_EVERY} turns ${mean.toFixed(2)} ms/turn, ${((performance.now() - started) / 1000).toFixed(1)} s so far\n`);
    }
  }
  await runner.finish(turns);
  return { name: runner.name, perTurn };
}

/** Plays a few turns on a throwaway runner so module loading and first compilation are not timed. */
export async function warmUp(factory: RunnerFactory, turns = 3): Promise<void> {
  const runner = await factory('warm-up');
  for (let turn = 1; turn <= turns; turn++) await runner.playTurn(turn);
  await runner.finish(turns);
}
