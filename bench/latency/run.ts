/**
 * `npm run bench:latency`: what a person feels between pressing and the model
 * being asked (issue 15), in real Chromium over a fresh production build
 * against the fake model server on loopback:
 *   a. press Send → the model request arrives at the server;
 *   b. press Approve → the continuation request arrives;
 *   c. reload with a pending card → its Approve is actionable;
 *   d. open the app → its worker answers an intent.
 * The presses are stamped in the page (the click's own timestamp) and the
 * requests by the server when their head arrives, both as
 * `performance.timeOrigin + performance.now()`: one clock on one machine,
 * which a clock check confirms each run. See README.md.
 *
 * Environment: BENCH_LATENCY_ROUNDS (default 15); BENCH_LATENCY_DIST=<dir> to
 * serve an existing build instead of building (to compare builds).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeLlm } from '../../tests/fake-llm/index.ts';
import { launchChromium, newProfile, waitForServiceWorker } from '../ui/browser.ts';
import { buildApp, startPreview } from '../ui/preview-server.ts';
import { clockCheck } from './clock-check.ts';
import { coldStart, type ColdStart } from './cold-start.ts';
import { installLatencyProbes } from './page-probes.ts';
import { percentile, p50p90 } from './percentile.ts';
import { playRound, type RoundTiming } from './round-trip.ts';
import { setUpEndpoint } from './set-up-endpoint.ts';

const ROUNDS = Number(process.env.BENCH_LATENCY_ROUNDS ?? 15);
const PREBUILT = process.env.BENCH_LATENCY_DIST ? resolve(process.env.BENCH_LATENCY_DIST) : undefined;
/** Rounds played first and not counted: the first creates the conversation and fills the preflight cache, and V8 compiles the paths. */
const WARM_UP_ROUNDS = 2;
/** Idle time before each press, so the press does not land on the previous step's leftover rendering (a person reads first). */
const SETTLE_MS = 300;
const API_KEY = 'sk-bench-latency';

const TARGETS = { sendMs: 25, approveMs: 25, reloadMs: 150 } as const;

const log = (line: string) => process.stderr.write(`${line}\n`);

const loadBefore = loadavg()[0] ?? 0;
const started = performance.now();
const cleanups: (() => Promise<unknown>)[] = [];
try {
  let outDir = PREBUILT;
  if (!outDir) {
    outDir = await mkdtemp(join(tmpdir(), 'pausepoint-bench-latency-'));
    const built = outDir;
    cleanups.push(() => rm(built, { recursive: true, force: true }));
    log(`Building the app into ${outDir}…`);
    await buildApp(outDir);
  }
  const server = await startPreview(outDir);
  cleanups.unshift(() => server.stop());
  const llm = await startFakeLlm({ requireKey: API_KEY });
  cleanups.unshift(() => llm.close());
  const browser = await launchChromium();
  cleanups.unshift(() => browser.close());
  log(`vite preview on ${server.origin}, fake model on ${llm.baseUrl}, Chromium ${browser.version()}`);

  const context = await newProfile(browser, server.origin);
  const page = await context.newPage();
  await page.addInitScript(installLatencyProbes, { probeWorker: false });
  await setUpEndpoint(page, llm, API_KEY);
  await waitForServiceWorker(page);
  await page.goto('/#/new');

  const rounds: RoundTiming[] = [];
  for (let round = 1; round <= WARM_UP_ROUNDS + ROUNDS; round++) {
    const counted = round > WARM_UP_ROUNDS;
    log(counted ? `Round ${round - WARM_UP_ROUNDS} of ${ROUNDS}…` : `Warm-up round ${round}…`);
    const timing = await playRound(page, llm, round, SETTLE_MS);
    if (counted) rounds.push(timing);
  }
  const conversationPath = new URL(page.url()).hash;
  const clock = await clockCheck(page, llm, ROUNDS);

  log(`Opening the app ${ROUNDS + 1} times in new tabs (the first not counted)…`);
  const starts: ColdStart[] = [];
  for (let i = 0; i <= ROUNDS; i++) {
    const start = await coldStart(context, `/${conversationPath}`);
    if (i > 0) starts.push(start);
  }

  const loadAfter = loadavg()[0] ?? 0;
  const pick = <T>(list: readonly T[], key: keyof T) => list.map((item) => item[key] as number);
  const rows: [string, number[], number | undefined][] = [
    ['a. press Send → model request at the server', pick(rounds, 'sendMs'), TARGETS.sendMs],
    ['b. press Approve → continuation request at the server', pick(rounds, 'approveMs'), TARGETS.approveMs],
    ['c. reload with a pending card → Approve actionable (painted)', pick(rounds, 'reloadPaintedMs'), TARGETS.reloadMs],
    ['d. open the app → its worker answers an intent', pick(starts, 'answeredMs'), undefined],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(
    `\nPausepoint latency bench — Chromium ${browser.version()}, ${cpus().length} cores, 1-minute load ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after`,
  );
  console.log(`${ROUNDS} rounds after ${WARM_UP_ROUNDS} warm-up rounds, in one conversation; p50 / p90 (nearest rank).\n`);
  console.log(`${'from → to'.padEnd(width)}  p50 / p90                             target (p50)  result`);
  for (const [name, values, target] of rows) {
    const verdict = target === undefined ? '—' : percentile(values, 50) <= target ? 'PASS' : 'MISS';
    console.log(`${name.padEnd(width)}  ${p50p90(values).padEnd(38)}  ${target === undefined ? '(report)' : `≤ ${target} ms`}${' '.repeat(target === undefined ? 6 : 14 - `≤ ${target} ms`.length)}${verdict}`);
  }
  console.log('\nDetails:');
  console.log(`  a/b from when the page's first click listener ran (input delay taken out): Send ${p50p90(pick(rounds, 'sendSeenMs'))}; Approve ${p50p90(pick(rounds, 'approveSeenMs'))}`);
  console.log(`  c. in the DOM, enabled and visible (MutationObserver): ${p50p90(pick(rounds, 'reloadActionableMs'))}`);
  console.log(`  d. new Worker() returned ${p50p90(pick(starts, 'createdMs'))}; its ready event ${p50p90(pick(starts, 'readyMs'))}`);
  console.log(`  CORS preflights during the timed rounds: ${rounds.reduce((n, r) => n + r.preflights, 0)} (each would add a round trip before its request)`);
  console.log(
    `  clock check, a plain fetch from the page: page → server ${p50p90(clock.oneWayMs)}; server → page ${p50p90(clock.backMs)}` +
      (Math.min(...clock.oneWayMs, ...clock.backMs) < 0 ? '  NEGATIVE: the two clocks disagree, the rows above are not trustworthy' : ' (both ≥ 0: one clock)'),
  );
  console.log(`\nTotal bench time ${((performance.now() - started) / 1000).toFixed(0)} s.`);
} finally {
  for (const cleanup of cleanups) await cleanup().catch((error: unknown) => log(`cleanup failed: ${String(error)}`));
}
