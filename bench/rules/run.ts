import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { evaluateRules, type RuleCall, type RuleVerdict } from '../../src/engine/evaluate-rules.ts';
import type { RuleSet } from '../../src/engine/rules-port.ts';
import { mixedCalls, mixedRules, NOW, RULE_COUNT } from './mixed-rules.ts';

/**
 * `npm run bench:rules`: how long the engine's rule evaluation takes per call
 * with 1,000 mixed rules (target: under 0.05 ms). The rule set is a structured
 * clone, as one read from IndexedDB is. Each sample evaluates every call of
 * the mix many times over; the figure is the median per call over the
 * samples, which a stray GC pause or a neighbour's burst does not move.
 * The evaluator indexes a rules array the second time it sees it
 * (rule-index.ts): each sample's set is new, and its first call scans and its
 * second builds the index, both timed with the rest. What a port that hands
 * out a fresh array for every call gets — a scan of all the rules each time —
 * is shown apart.
 */
const TARGET_MS = 0.05;
const SAMPLES = 41;
const ROUNDS_PER_SAMPLE = 200;
const WARM_UP_ROUNDS = 2_000;

const calls = mixedCalls();
let sink = 0;
const count = (verdict: RuleVerdict) => (sink += verdict.effect.length + verdict.stale.length);
const freshSet = (): RuleSet => structuredClone(mixedRules());

interface Sample {
  wall: number;
  cpu: number;
}

/** Wall and process CPU time per evaluation over `evaluations` runs of `work`. */
function sample(evaluations: number, work: () => void): Sample {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  work();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall: wall / evaluations, cpu: (cpu.user + cpu.system) / 1000 / evaluations };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const medians = (samples: readonly Sample[]): Sample => ({ wall: median(samples.map((s) => s.wall)), cpu: median(samples.map((s) => s.cpu)) });
const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;

const warm = freshSet();
for (let round = 0; round < WARM_UP_ROUNDS; round++) for (const call of calls) count(evaluateRules(warm, call, NOW));

const loadBefore = loadavg()[0] ?? 0;

const mixed: Sample[] = [];
for (let s = 0; s < SAMPLES; s++) {
  const set = freshSet();
  mixed.push(sample(ROUNDS_PER_SAMPLE * calls.length, () => {
    for (let round = 0; round < ROUNDS_PER_SAMPLE; round++) for (const call of calls) count(evaluateRules(set, call, NOW));
  }));
}

// Each call of the mix alone, to show the spread.
const perCall: { label: string; times: Sample }[] = [];
for (const call of calls) {
  const set = freshSet();
  const times: Sample[] = [];
  for (let s = 0; s < SAMPLES; s++) times.push(sample(ROUNDS_PER_SAMPLE, () => {
    for (let round = 0; round < ROUNDS_PER_SAMPLE; round++) count(evaluateRules(set, call, NOW));
  }));
  perCall.push({ label: describe(set, call), times: medians(times) });
}

// A fresh rules array for every call: each is scanned, never indexed (the copies are made outside the timing).
const COLD_ROUNDS = 20;
const cold: Sample[] = [];
for (let s = 0; s < SAMPLES; s++) {
  const sets = Array.from({ length: COLD_ROUNDS * calls.length }, () => ({ ...warm, rules: [...warm.rules] }));
  cold.push(sample(sets.length, () => {
    let i = 0;
    for (let round = 0; round < COLD_ROUNDS; round++) for (const call of calls) count(evaluateRules(sets[i++]!, call, NOW));
  }));
}
const loadAfter = loadavg()[0] ?? 0;

function describe(set: RuleSet, call: RuleCall): string {
  const verdict = evaluateRules(set, call, NOW);
  return `${call.toolName} ${JSON.stringify(call.args).slice(0, 56)} → ${verdict.effect}${'rule' in verdict ? ` (${verdict.rule.id})` : ''}`;
}

const figure = medians(mixed);
const coldFigure = medians(cold);
console.log(`1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after, on ${cpus().length} cores (this bench adds about 1; more is other work, and shows in wall time).`);
console.log(`\nRule evaluation with ${RULE_COUNT} mixed rules; ${SAMPLES} samples of ${ROUNDS_PER_SAMPLE} rounds; median per call, wall and process CPU time:\n`);
for (const { label, times } of perCall) console.log(`  ${us(times.wall).padStart(10)}  ${us(times.cpu).padStart(10)} CPU  ${label}`);
console.log(`\n  a fresh rules array for every call (scanned, not indexed): ${us(coldFigure.wall)} per call (${us(coldFigure.cpu)} CPU)`);
console.log(`\nmedian per call over the mix of ${calls.length} calls: ${figure.wall.toFixed(4)} ms (${us(figure.wall)}; process CPU time ${us(figure.cpu)}) — target < ${TARGET_MS} ms: ${figure.wall < TARGET_MS ? 'MET' : 'MISSED'}`);
if (sink === 0) console.log('(nothing evaluated)');
