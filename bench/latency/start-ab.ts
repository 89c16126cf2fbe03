/**
 * `npm run bench:latency:ab -- <dist A> <dist B>`: rows c (reload with a pending
 * card → its Approve painted) and d (open the app → its worker answers an
 * intent) of bench:latency for two builds, their rounds interleaved — A, B, A,
 * B… in one browser, each build on its own preview server, fake model and
 * profile — so both meet the same minutes of a shared machine's load, which
 * moves one build's figure by 2× between runs taken apart (README.md). The
 * 1-minute load average is printed with every round.
 *
 * BENCH_LATENCY_ROUNDS (default 10) rounds per build after the warm-up.
 * BENCH_LATENCY_TRACE=1 also traces the openings (devtools.timeline) and
 * splits row d on the worker's thread: its script's response, compile and
 * evaluation, and its database's open (start-split.ts). The trace costs
 * time of its own: compare traced runs with traced runs.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { startFakeLlm, type FakeLlm } from '../../tests/fake-llm/index.ts';
import { launchChromium } from '../ui/browser.ts';
import { startPreview } from '../ui/preview-server.ts';
import { ChromeTrace } from './chrome-trace.ts';
import { coldStart, type ColdStart } from './cold-start.ts';
import { p50p90, percentile } from './percentile.ts';
import { playRound } from './round-trip.ts';
import { returningPage } from './set-up-endpoint.ts';
import { startSplit, type StartSplit } from './start-split.ts';

const ROUNDS = Number(process.env.BENCH_LATENCY_ROUNDS ?? 10);
const TRACE = process.env.BENCH_LATENCY_TRACE === '1';
const WARM_UP_ROUNDS = 2;
const SETTLE_MS = 200;
const API_KEY = 'sk-bench-latency';
const log = (line: string) => process.stderr.write(`${line}\n`);

const dists = process.argv.slice(2).map((dir) => resolve(dir));
if (dists.length !== 2) {
  console.error('Usage: npm run bench:latency:ab -- <dist A> <dist B>   (two `vite build` outputs)');
  process.exit(2);
}

interface Build {
  label: string;
  dist: string;
  llm: FakeLlm;
  context: BrowserContext;
  page: Page;
  path: string;
  round: number;
  reloads: number[];
  starts: ColdStart[];
  splits: StartSplit[];
  loads: number[];
}

const cleanups: (() => Promise<unknown>)[] = [];
try {
  const browser = await launchChromium();
  cleanups.unshift(() => browser.close());
  const builds: Build[] = [];
  for (const [i, dist] of dists.entries()) {
    const server = await startPreview(dist);
    cleanups.unshift(() => server.stop());
    const llm = await startFakeLlm({ requireKey: API_KEY });
    cleanups.unshift(() => llm.close());
    const { context, page } = await returningPage(browser, server.origin, llm, API_KEY);
    const build: Build = { label: i === 0 ? 'A' : 'B', dist, llm, context, page, path: '', round: 0, reloads: [], starts: [], splits: [], loads: [] };
    for (let round = 1; round <= WARM_UP_ROUNDS; round++) await playRound(page, llm, ++build.round, { reload: true, settleMs: SETTLE_MS });
    build.path = `/${new URL(page.url()).hash}`;
    // The first opening compiles and caches what later ones reuse: not counted.
    await coldStart(context, build.path);
    builds.push(build);
    log(`${build.label}: ${dist} on ${server.origin}`);
  }

  for (let i = 1; i <= ROUNDS; i++) {
    for (const build of builds) {
      const load = loadavg()[0] ?? 0;
      build.loads.push(load);
      const { reload } = await playRound(build.page, build.llm, ++build.round, { reload: true, settleMs: SETTLE_MS });
      build.reloads.push(reload!.paintedMs);
      let stopTrace: (() => Promise<ChromeTrace>) | undefined;
      if (TRACE) stopTrace = await ChromeTrace.record(browser, build.page, ['toplevel', 'devtools.timeline', 'v8', 'IndexedDB', 'blink.user_timing']);
      const start = await coldStart(build.context, build.path);
      if (stopTrace) {
        const split = startSplit(await stopTrace());
        if (split) build.splits.push(split);
      }
      build.starts.push(start);
      log(`round ${i} ${build.label}: load ${load.toFixed(1)}, c ${reload!.paintedMs.toFixed(1)} ms, d ${start.answeredMs.toFixed(1)} ms (ready ${start.readyMs.toFixed(1)})`);
    }
  }

  console.log(`\nRows c and d, builds interleaved, ${ROUNDS} rounds each; p50 / p90 ms by nearest rank`);
  for (const b of builds) {
    const loads = `load ${Math.min(...b.loads).toFixed(1)}–${Math.max(...b.loads).toFixed(1)}`;
    console.log(`${b.label} ${b.dist} (${loads})`);
    console.log(`  c. reload → Approve painted      ${p50p90(b.reloads)}`);
    console.log(`  d. open → worker answers         ${p50p90(b.starts.map((s) => s.answeredMs))}`);
    console.log(`     new Worker() returned ${p50p90(b.starts.map((s) => s.createdMs))}; ready ${p50p90(b.starts.map((s) => s.readyMs))}`);
    if (b.splits.length > 0) {
      const p50 = (pick: (s: StartSplit) => number) => percentile(b.splits.map(pick), 50).toFixed(1);
      console.log(
        `     the worker's thread, p50 over ${b.splits.length} traced openings (from its first event): script response ${p50((s) => s.fetchedMs)}; ` +
          `compile ${p50((s) => s.compileMs)} (CPU ${p50((s) => s.compileCpuMs)}); evaluate ${p50((s) => s.evaluateMs)} (CPU ${p50((s) => s.evaluateCpuMs)}); ` +
          `database open requested at ${p50((s) => s.openStartMs)}, open ${p50((s) => s.openMs)} to its success handler's end`,
      );
    }
  }
} finally {
  for (const cleanup of cleanups) await cleanup().catch((error: unknown) => log(`cleanup failed: ${String(error)}`));
}
