import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { evaluateRules, type RuleCall, type RuleVerdict } from '../../src/engine/evaluate-rules.ts';
import type { RuleSet } from '../../src/engine/rules-port.ts';
import { previewRule, type RulePreview } from '../../src/engine/preview-rule.ts';
import type { ApprovalRule } from '../../src/engine/records/index.ts';
import { mixedCalls, mixedRules, NOW, RULE_COUNT } from './mixed-rules.ts';
import { STORED_CALLS, storedCalls } from './preview-calls.ts';

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
 *
 * Then the preview a rule's form shows before it is saved (preview-rule.ts):
 * a draft judged over 10,000 stored calls among the same 1,000 rules
 * (target: at most 50 ms), for a draft that matches many calls and for one
 * that matches few; the reading of the calls from IndexedDB is not in it.
 */
const TARGET_MS = 0.05;
const PREVIEW_TARGET_MS = 50;
const PREVIEW_SAMPLES = 15;
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

// The preview: a draft among the rules, over the stored calls (each sample a fresh rules set, as each preview reads one).
const stored = storedCalls();
const draft = (overrides: Partial<ApprovalRule>): ApprovalRule => ({
  v: 1, id: 'draft', effect: 'allow', tool: 'http_request', match: [], scope: { kind: 'everywhere' }, source: 'settings',
  createdAt: NOW, lastUsedAt: null, expiresAt: null, definitionHash: null, enabled: true, ...overrides,
});
const drafts: { label: string; rule: ApprovalRule }[] = [
  { label: 'ask before every http_request', rule: draft({ effect: 'ask' }) },
  { label: 'allow http_request on https://api6.example.com', rule: draft({ match: [{ kind: 'url', pointer: '/url', origin: 'https://api6.example.com' }] }) },
  { label: 'deny tool_* when to is *@evil.test', rule: draft({ effect: 'deny', tool: 'tool_*', match: [{ kind: 'glob', pointer: '/to', pattern: '*@evil.test' }] }) },
];
for (let warm = 0; warm < 3; warm++) for (const { rule } of drafts) previewRule(rule, freshSet(), stored, NOW);
const previews: { label: string; times: Sample; preview: RulePreview }[] = [];
for (const { label, rule } of drafts) {
  const times: Sample[] = [];
  let preview!: RulePreview;
  for (let s = 0; s < PREVIEW_SAMPLES; s++) {
    const set = freshSet();
    times.push(sample(1, () => void (preview = previewRule(rule, set, stored, NOW))));
  }
  previews.push({ label, times: medians(times), preview });
}

const figure = medians(mixed);
const coldFigure = medians(cold);
console.log(`1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after, on ${cpus().length} cores (this bench adds about 1; more is other work, and shows in wall time).`);
console.log(`\nRule evaluation with ${RULE_COUNT} mixed rules; ${SAMPLES} samples of ${ROUNDS_PER_SAMPLE} rounds; median per call, wall and process CPU time:\n`);
for (const { label, times } of perCall) console.log(`  ${us(times.wall).padStart(10)}  ${us(times.cpu).padStart(10)} CPU  ${label}`);
console.log(`\n  a fresh rules array for every call (scanned, not indexed): ${us(coldFigure.wall)} per call (${us(coldFigure.cpu)} CPU)`);
console.log(`\nmedian per call over the mix of ${calls.length} calls: ${figure.wall.toFixed(4)} ms (${us(figure.wall)}; process CPU time ${us(figure.cpu)}) — target < ${TARGET_MS} ms: ${figure.wall < TARGET_MS ? 'MET' : 'MISSED'}`);
console.log(`\nRule preview over ${STORED_CALLS.toLocaleString('en')} stored calls with ${RULE_COUNT} rules; median of ${PREVIEW_SAMPLES} previews:\n`);
const ms = (value: number) => `${value.toFixed(2)} ms`;
for (const { label, times, preview } of previews) {
  console.log(`  ${ms(times.wall).padStart(10)}  ${ms(times.cpu).padStart(10)} CPU  ${label}: would have decided ${preview.decided} of ${preview.of}`);
}
const worst = previews.reduce((a, b) => (b.times.wall > a.times.wall ? b : a)).times;
console.log(`\nslowest preview: ${ms(worst.wall)} (process CPU time ${ms(worst.cpu)}) — target ≤ ${PREVIEW_TARGET_MS} ms: ${worst.wall <= PREVIEW_TARGET_MS ? 'MET' : 'MISSED'}`);
if (sink === 0) console.log('(nothing evaluated)');
