/**
 * `npm run bench:latency`: what a person feels between pressing and the model
 * being asked (issue 15), in real Chromium over a fresh production build,
 * against the fake model server on loopback:
 *   a. press Send → the model request arrives at the server;
 *   b. press Approve → the continuation request arrives;
 *   c. reload with a pending card → its Approve is actionable;
 *   d. open the app → its worker answers an intent.
 * Presses are stamped in the page (the click's own timestamp), requests by the
 * server when their head arrives, both as `performance.timeOrigin +
 * performance.now()`: one clock on one machine, which a clock check confirms
 * each run. A Chrome trace of top-level tasks (cheap) runs throughout, so each
 * row also gets the CPU time the page and its worker spent inside it. See
 * README.md.
 *
 * Environment: BENCH_LATENCY_ROUNDS (default 15); BENCH_LATENCY_DIST=<dir> to
 * serve an existing build instead of building (to compare two builds);
 * BENCH_LATENCY_DIAGNOSE=1 to trace with devtools.timeline and IndexedDB too
 * and print each press row's path split into segments (critical-path.ts). The
 * richer trace costs time of its own: compare rows only between runs alike.
 */
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { startFakeLlm } from '../../tests/fake-llm/index.ts';
import { launchChromium } from '../ui/browser.ts';
import { appBuild, startPreview } from '../ui/preview-server.ts';
import { ChromeTrace, type WindowTime } from './chrome-trace.ts';
import { clockCheck } from './clock-check.ts';
import { criticalPath, CRITICAL_PATH_CATEGORIES, type CriticalPath } from './critical-path.ts';
import { coldStart, type ColdStart } from './cold-start.ts';
import { remarkClock } from './page-probes.ts';
import { percentile, p50p90 } from './percentile.ts';
import { playRound, type PressToRequest, type RoundTiming } from './round-trip.ts';
import { returningPage } from './set-up-endpoint.ts';

const ROUNDS = Number(process.env.BENCH_LATENCY_ROUNDS ?? 15);
const PREBUILT = process.env.BENCH_LATENCY_DIST ? resolve(process.env.BENCH_LATENCY_DIST) : undefined;
/** Rounds played first and not counted: the first creates the conversation and fills the preflight cache, and V8 compiles the paths. */
const WARM_UP_ROUNDS = 2;
/** Idle time before each press, so it does not land on the previous step's rendering (a person reads first). */
const SETTLE_MS = 200;
const API_KEY = 'sk-bench-latency';
const DIAGNOSE = process.env.BENCH_LATENCY_DIAGNOSE === '1';
const CATEGORIES = DIAGNOSE ? CRITICAL_PATH_CATEGORIES : undefined;
const TARGETS = { sendMs: 25, approveMs: 25, reloadMs: 150 } as const;

const log = (line: string) => process.stderr.write(`${line}\n`);
const phaseTimes: string[] = [];
let phaseStart = performance.now();
const phaseDone = (name: string) => {
  const now = performance.now();
  phaseTimes.push(`${name} ${((now - phaseStart) / 1000).toFixed(0)} s`);
  phaseStart = now;
};

interface Row {
  name: string;
  values: number[];
  target?: number;
  /** CPU on the path, from the trace, one per value. */
  cpu?: WindowTime[];
}

function printRows(rows: readonly Row[]): void {
  const cells = rows.map((row) => {
    const p50 = percentile(row.values, 50);
    const cpu = row.cpu && `worker ${percentile(row.cpu.map((c) => c.worker.cpuMs), 50).toFixed(1)}, page ${percentile(row.cpu.map((c) => c.page.cpuMs), 50).toFixed(1)}`;
    return [
      row.name,
      p50p90(row.values),
      row.target === undefined ? '(report)' : `≤ ${row.target} ms`,
      row.target === undefined ? '—' : p50 <= row.target ? 'PASS' : 'MISS',
      cpu ?? '',
    ];
  });
  const header = ['from → to', 'p50 / p90', 'target (p50)', 'result', 'CPU ms inside, p50'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  console.log([line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n'));
}

const loadBefore = loadavg()[0] ?? 0;
const started = performance.now();
const cleanups: (() => Promise<unknown>)[] = [];
try {
  const build = await appBuild(PREBUILT, 'bench-latency', (dir) => log(`Building the app into ${dir}…`));
  cleanups.push(() => build.remove());
  if (!PREBUILT) phaseDone('build');
  const server = await startPreview(build.dir);
  cleanups.unshift(() => server.stop());
  const llm = await startFakeLlm({ requireKey: API_KEY });
  cleanups.unshift(() => llm.close());
  const browser = await launchChromium();
  cleanups.unshift(() => browser.close());
  log(`vite preview on ${server.origin}, fake model on ${llm.baseUrl}, Chromium ${browser.version()} (${((performance.now() - started) / 1000).toFixed(0)} s)`);

  const { context, page } = await returningPage(browser, server.origin, llm, API_KEY);
  phaseDone('set-up');

  // Phase 1: one long-lived page and worker, as in a session of work.
  for (let round = 1; round <= WARM_UP_ROUNDS; round++) {
    log(`Warm-up round ${round}…`);
    await playRound(page, llm, round, { reload: false, settleMs: SETTLE_MS });
  }
  const warm: RoundTiming[] = [];
  let stopTrace = await ChromeTrace.record(browser, page, CATEGORIES);
  await remarkClock(page);
  for (let i = 1; i <= ROUNDS; i++) {
    log(`Send and Approve, round ${i} of ${ROUNDS}…`);
    warm.push(await playRound(page, llm, WARM_UP_ROUNDS + i, { reload: false, settleMs: SETTLE_MS }));
  }
  const warmTrace = await stopTrace();
  phaseDone('Send/Approve');

  // Phase 2: each card is decided after a reload, by the reloaded page's new worker.
  const reloaded: RoundTiming[] = [];
  stopTrace = await ChromeTrace.record(browser, page, CATEGORIES);
  for (let i = 1; i <= ROUNDS; i++) {
    log(`Reload with a pending card, round ${i} of ${ROUNDS}…`);
    reloaded.push(await playRound(page, llm, WARM_UP_ROUNDS + ROUNDS + i, { reload: true, settleMs: SETTLE_MS }));
  }
  const reloadTrace = await stopTrace();
  phaseDone('reloads');

  // Phase 3: each press after the service worker went idle, as it does after 30 s without events
  // (reading a card, typing a message): stopped through DevTools, as Chromium would stop it.
  const devtools = await context.newCDPSession(page);
  await devtools.send('ServiceWorker.enable');
  const stopServiceWorker = async () => {
    await devtools.send('ServiceWorker.stopAllWorkers');
  };
  const idle: RoundTiming[] = [];
  stopTrace = await ChromeTrace.record(browser, page, CATEGORIES);
  await remarkClock(page);
  for (let i = 1; i <= ROUNDS; i++) {
    log(`Presses after the service worker went idle, round ${i} of ${ROUNDS}…`);
    idle.push(await playRound(page, llm, WARM_UP_ROUNDS + 2 * ROUNDS + i, { reload: false, settleMs: SETTLE_MS, beforePress: stopServiceWorker }));
  }
  const idleTrace = await stopTrace();
  // Phase 4: each reload after the service worker went idle: the app's navigation and scripts come from the precache's static routes.
  const idleReloads: RoundTiming[] = [];
  stopTrace = await ChromeTrace.record(browser, page, CATEGORIES);
  for (let i = 1; i <= ROUNDS; i++) {
    log(`Reload with a pending card, the service worker idle, round ${i} of ${ROUNDS}…`);
    idleReloads.push(await playRound(page, llm, WARM_UP_ROUNDS + 3 * ROUNDS + i, { reload: true, settleMs: SETTLE_MS, beforeReload: stopServiceWorker }));
  }
  const idleReloadTrace = await stopTrace();
  await devtools.detach();
  phaseDone('idle service worker');
  const clock = await clockCheck(page, llm, ROUNDS);

  log(`Opening the app ${ROUNDS + 1} times in new tabs (the first not counted)…`);
  const conversationPath = new URL(page.url()).hash;
  const starts: ColdStart[] = [];
  for (let i = 0; i <= ROUNDS; i++) {
    const start = await coldStart(context, `/${conversationPath}`);
    if (i > 0) starts.push(start);
  }
  phaseDone('openings');

  const loadAfter = loadavg()[0] ?? 0;
  const ms = (list: readonly PressToRequest[]) => list.map((p) => p.ms);
  const cpuOf = (trace: ChromeTrace, list: readonly PressToRequest[]) => list.map((p) => trace.timeBetween(p.clockMark, p.press.at, p.request.receivedAt));
  const sends = warm.map((r) => r.send);
  const approvals = warm.map((r) => r.approve);
  const afterReload = reloaded.map((r) => r.approve);
  const rows: Row[] = [
    { name: 'a. press Send → model request at the server', values: ms(sends), target: TARGETS.sendMs, cpu: cpuOf(warmTrace, sends) },
    { name: 'b. press Approve → continuation request at the server', values: ms(approvals), target: TARGETS.approveMs, cpu: cpuOf(warmTrace, approvals) },
    { name: "b′. press Approve on a just-reloaded page (its new worker)", values: ms(afterReload), target: TARGETS.approveMs, cpu: cpuOf(reloadTrace, afterReload) },
    { name: 'a″. press Send, the service worker just stopped', values: ms(idle.map((r) => r.send)), target: TARGETS.sendMs, cpu: cpuOf(idleTrace, idle.map((r) => r.send)) },
    { name: 'b″. press Approve, the service worker just stopped', values: ms(idle.map((r) => r.approve)), target: TARGETS.approveMs, cpu: cpuOf(idleTrace, idle.map((r) => r.approve)) },
    {
      name: 'c. reload with a pending card → Approve actionable (painted)',
      values: reloaded.map((r) => r.reload!.paintedMs),
      target: TARGETS.reloadMs,
      cpu: reloaded.map(({ reload }) => reloadTrace.timeBetween(reload!.clockMark, reload!.timeOrigin, reload!.timeOrigin + reload!.paintedMs)),
    },
    {
      name: 'c″. the same reload, the service worker idle (stopped)',
      values: idleReloads.map((r) => r.reload!.paintedMs),
      target: TARGETS.reloadMs,
      cpu: idleReloads.map(({ reload }) => idleReloadTrace.timeBetween(reload!.clockMark, reload!.timeOrigin, reload!.timeOrigin + reload!.paintedMs)),
    },
    { name: 'd. open the app → its worker answers an intent', values: starts.map((s) => s.answeredMs) },
  ];

  console.log(
    `\nPausepoint latency bench — Chromium ${browser.version()}, ${cpus().length} cores, 1-minute load ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after`,
  );
  console.log(
    `${ROUNDS} rounds per row after ${WARM_UP_ROUNDS} warm-up rounds, all in one conversation; p50 / p90 by nearest rank. ` +
      'CPU: the worker\'s and the page\'s thread CPU time inside each window (Chrome trace); wall time above it is waiting — for IndexedDB, a lock, a timer, or a core.\n',
  );
  printRows(rows);
  console.log('\nDetails:');
  const seen = (list: readonly PressToRequest[]) => p50p90(list.map((p) => p.seenMs));
  console.log(`  a/b/b′ from when the page's first click listener ran (input delay taken out): ${seen(sends)}; ${seen(approvals)}; ${seen(afterReload)}`);
  const wall = (cpu: readonly WindowTime[] | undefined) =>
    cpu ? `worker busy ${percentile(cpu.map((c) => c.worker.wallMs), 50).toFixed(1)} ms, page busy ${percentile(cpu.map((c) => c.page.wallMs), 50).toFixed(1)} ms` : '';
  for (const row of rows.filter((r) => r.cpu)) console.log(`  ${row.name.slice(0, 2)} wall time of the threads' tasks inside the window, p50: ${wall(row.cpu)}`);
  console.log(`  c. in the DOM, enabled and visible (MutationObserver, before the frame): ${p50p90(reloaded.map((r) => r.reload!.actionableMs))}`);
  // A check on the row's own marker: the browser's presentation time of the frame holding the button.
  console.log(`  c. that frame presented (Element Timing's renderTime for the Approve button): ${p50p90(reloaded.map((r) => r.reload!.presentedMs))}`);
  console.log(`  c. the reloads' sends (a worker started by the previous reload): ${p50p90(ms(reloaded.map((r) => r.send)))}`);
  console.log(`  d. new Worker() returned ${p50p90(starts.map((s) => s.createdMs))}; its ready event ${p50p90(starts.map((s) => s.readyMs))}`);
  console.log(`  CORS preflights during the timed rounds: ${[...warm, ...reloaded, ...idle, ...idleReloads].reduce((n, r) => n + r.preflights, 0)} (each would add a round trip before its request)`);
  console.log(
    `  clock check, a plain fetch from the page: page → server ${p50p90(clock.oneWayMs)}; server → page ${p50p90(clock.backMs)}` +
      (Math.min(...clock.oneWayMs, ...clock.backMs) < 0 ? '  NEGATIVE: the two clocks disagree, the rows above cannot be trusted' : ' (all ≥ 0: one clock)'),
  );
  if (DIAGNOSE) {
    const traces = new Map<Row, [ChromeTrace, PressToRequest[]]>([
      [rows[0]!, [warmTrace, sends]],
      [rows[1]!, [warmTrace, approvals]],
      [rows[2]!, [reloadTrace, afterReload]],
      [rows[3]!, [idleTrace, idle.map((r) => r.send)]],
      [rows[4]!, [idleTrace, idle.map((r) => r.approve)]],
    ]);
    console.log('\nWhere the time goes, p50 per segment over the rounds (wall ms; the thread\'s CPU ms where one thread does the work):');
    for (const [row, [trace, presses]] of traces) {
      const paths: CriticalPath[] = [];
      for (const press of presses) {
        try {
          paths.push(criticalPath(trace, press));
        } catch (error) {
          log(`  ${row.name}: a round without a readable path (${String(error)})`);
        }
      }
      if (paths.length === 0) continue;
      const p50 = (values: number[]) => percentile(values, 50).toFixed(1);
      console.log(`  ${row.name} (${paths.length} rounds)`);
      paths[0]!.segments.forEach((segment, i) => {
        const wall = p50(paths.map((p) => p.segments[i]!.wallMs));
        const cpu = segment.cpuMs === undefined ? '' : `, CPU ${p50(paths.map((p) => p.segments[i]!.cpuMs!))}`;
        console.log(`    ${segment.name.padEnd(42)} ${wall.padStart(6)}${cpu}`);
      });
      console.log(`    worker IndexedDB transactions ${p50(paths.map((p) => p.workerTransactions))}; service worker thread busy in the network segment ${p50(paths.map((p) => p.serviceWorkerMs))}`);
    }
  }
  console.log(`\nTotal bench time ${((performance.now() - started) / 1000).toFixed(0)} s (${phaseTimes.join(', ')}).`);
} finally {
  for (const cleanup of cleanups) await cleanup().catch((error: unknown) => log(`cleanup failed: ${String(error)}`));
}
