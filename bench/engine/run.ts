import { cpus, loadavg } from 'node:os';
import { timeTurns, warmUp, WARM_UP_TURNS, type RunnerFactory } from './conversation-runner.ts';
import { formatTable, formatTargets, summarise } from './print-table.ts';
import { aiSdk } from './run-ai-sdk.ts';
import { openAIAgents } from './run-openai-agents.ts';
import { pausepointDexie, pausepointMemory } from './run-pausepoint.ts';
import { TURNS } from './scripted-turns.ts';

/**
 * `npm run bench:engine`: the same 200-turn scripted conversation through our
 * engine (Dexie on fake-indexeddb, then memory) and through both peers, one
 * after the other in this process. The first row is the baseline of every ratio.
 */
const RUNNERS: readonly RunnerFactory[] = [pausepointDexie, pausepointMemory, openAIAgents, aiSdk];

/** `node --expose-gc` (as `npm run bench:engine` starts it) lets each runner start on a collected heap. */
const gc = (globalThis as { gc?: () => void }).gc;
const collectGarbage = gc ?? (() => {});

/**
 * A second of nothing before each timed run, so V8's background threads
 * (optimising compiles queued by the warm-up, concurrent sweeping) finish
 * their work then rather than during the first timed turns. A person never
 * sends turns back to back anyway.
 */
const SETTLE_MS = 1_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

const loadBefore = loadavg()[0] ?? 0;
const results = [];
for (const factory of RUNNERS) {
  // Each runner warms up right before it is timed, and the garbage of the runs before it
  // (a peer's long histories included) is collected first, not during its early turns.
  collectGarbage();
  await warmUp(factory);
  collectGarbage();
  await settle();
  const runner = await factory('measured');
  process.stderr.write(`${runner.name}: ${TURNS} turns…\n`);
  results.push(summarise(await timeTurns(runner, TURNS)));
}

const [dexie] = results;
// Other processes on the machine show up in every figure: say how busy it was.
const loadAfter = loadavg()[0] ?? 0;
console.log(`\n1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after, on ${cpus().length} cores (this bench adds about 1; more than that is other work, and noise).`);
console.log(`\nOne conversation of ${TURNS} turns (user message → gated call → pause read back → approve → tool → answer), mean time per turn:`);
console.log(`warm-up: ${WARM_UP_TURNS} turns not counted (a throwaway conversation per runner, in its own storage, played right before it is timed; the timed one starts empty${gc ? ', on a collected heap' : ''}, after ${SETTLE_MS} ms idle).\n`);
console.log(formatTable(results));
if (dexie) console.log(`\n${formatTargets(dexie)}`);
