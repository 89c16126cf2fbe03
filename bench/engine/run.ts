import { cpus, loadavg } from 'node:os';
import { medianPerTurn, timeTurns, warmUp, WARM_UP_TURNS, type RunnerFactory, type TurnTimings } from './conversation-runner.ts';
import { formatChromiumTarget, formatTable, formatTargets, summarise } from './print-table.ts';
import { aiSdk } from './run-ai-sdk.ts';
import { openAIAgents } from './run-openai-agents.ts';
import { pausepointInChromium } from './run-in-chromium.ts';
import { pausepointDexie, pausepointMemory } from './run-pausepoint.ts';
import { TURNS } from './scripted-turns.ts';

/**
 * `npm run bench:engine`: the same 200-turn scripted conversation through our
 * engine (Dexie on fake-indexeddb, then memory) and through both peers, one
 * after the other in this process; then our runner once more, over Dexie on
 * Chromium's real IndexedDB, in a page (run-in-chromium.ts). The first row is
 * the baseline of every ratio. BENCH_ENGINE_CHROMIUM=0 leaves the page out;
 * BENCH_ENGINE_CHROMIUM=only runs the page alone (a minute, not five: for
 * before/after pairs of a change to the engine or its storage).
 */
const RUNNERS: readonly RunnerFactory[] =
  process.env.BENCH_ENGINE_CHROMIUM === 'only' ? [] : [pausepointDexie, pausepointMemory, openAIAgents, aiSdk];

/**
 * A second of nothing before each runner's timed runs, so V8's background
 * threads (optimising compiles queued by the warm-up, concurrent sweeping)
 * finish their work then rather than during the first timed turns. A person
 * never sends turns back to back anyway.
 */
const SETTLE_MS = 1_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/**
 * Timed runs per runner, each a new conversation on fresh storage. On a shared
 * two-core machine one run's means move by a third from one run to the next;
 * each turn is reported as its median over the runs, which a stray GC pause or
 * a neighbour's burst in one run does not move.
 */
const RUNS = 3;

const loadBefore = loadavg()[0] ?? 0;
const results = [];
for (const factory of RUNNERS) {
  // Each runner warms up right before it is timed: no other runner's garbage or compiles in its first turns.
  await warmUp(factory);
  await settle();
  const runs: TurnTimings[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const runner = await factory(`measured-${run}`);
    process.stderr.write(`${runner.name}: ${TURNS} turns, run ${run} of ${RUNS}…\n`);
    runs.push(await timeTurns(runner, TURNS));
  }
  results.push(summarise(medianPerTurn(runs)));
}
// After the Node runners, so the browser's own threads do not run beside them; beside their rows in the table.
const inChromium = process.env.BENCH_ENGINE_CHROMIUM === '0' ? undefined : await pausepointInChromium(RUNS, SETTLE_MS, (line) => process.stderr.write(`${line}\n`));
const chromium = inChromium && summarise(inChromium.timings);
if (chromium) results.splice(1, 0, chromium);

const [dexie] = results;
// Other processes on the machine show up in every figure: say how busy it was.
const loadAfter = loadavg()[0] ?? 0;
console.log(`\n1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after, on ${cpus().length} cores (this bench adds about 1; more than that is other work, and noise).`);
console.log(`\nOne conversation of ${TURNS} turns (user message → gated call → pause read back → approve → tool → answer), mean time per turn:`);
console.log(`warm-up: ${WARM_UP_TURNS} turns not counted (a throwaway conversation per runner, in its own storage, played right before it is timed, then ${SETTLE_MS} ms idle).`);
console.log(`${RUNS} timed runs per runner, each a new conversation on fresh storage; each turn's time is its median over the runs, and each figure the mean of those over its turns.`);
if (chromium) console.log(`"${chromium.name}": the same runner in a page of Chromium (its own IndexedDB, the storage service's process behind it), bundled by vite; it has no process CPU clock.\n`);
console.log(formatTable(results));
if (dexie && dexie !== chromium) console.log(`\n${formatTargets(dexie)}`);
if (chromium) console.log(`\n${formatChromiumTarget(chromium, inChromium?.floor)}`);
