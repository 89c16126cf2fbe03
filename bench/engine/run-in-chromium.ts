import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from '@playwright/test';
import { launchChromium, launchChromiumOnDisk } from '../ui/browser.ts';
import { bundlePage, serveBundle } from '../ui/bundled-page.ts';
import { medianPerTurn, type TurnTimings } from './conversation-runner.ts';
import { formatFloor, type FloorFigures } from './chromium/idb-floor.ts';

/** A loopback origin that nothing listens on (serveBundle). */
const ORIGIN = 'http://127.0.0.1:4189';
const ENTRY = fileURLToPath(new URL('./chromium/engine-page.ts', import.meta.url));
const PAGE = '<!doctype html><meta charset="utf-8"><title>bench:engine in Chromium</title><script type="module" src="/engine-page.js"></script>';

/** CPU time so far of each kind of Chromium process (browser, renderer, utility…), in ms; undefined without a Browser to ask. */
async function chromiumCpu(context: BrowserContext): Promise<Map<string, number> | undefined> {
  const browser = context.browser();
  if (!browser) return undefined;
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; cpuTime: number }[] };
    const byType = new Map<string, number>();
    for (const { type, cpuTime } of processInfo) byType.set(type, (byType.get(type) ?? 0) + cpuTime * 1000);
    return byType;
  } finally {
    await session.detach();
  }
}

/**
 * bench:engine's Pausepoint runner over Dexie on Chromium's own IndexedDB:
 * a warm-up conversation, a second of rest, then `runs` timed conversations,
 * each on a fresh database, all played inside one page; each turn's median
 * over the runs, as in Node. BENCH_ENGINE_TRACE=1 adds a per-port-call and
 * per-transaction breakdown of turns 1–20 and 181–200 (chromium/port-trace.ts).
 * Then the floor of the same IndexedDB requests made bare (chromium/idb-floor.ts),
 * so the target is judged beside what the browser's IndexedDB alone costs in the
 * same run; BENCH_ENGINE_FLOOR=0 leaves it out.
 */
export async function pausepointInChromium(runs: number, settleMs: number, log: (line: string) => void): Promise<{ timings: TurnTimings; floor?: FloorFigures }> {
  const outDir = await mkdtemp(join(tmpdir(), 'pausepoint-bench-engine-'));
  // BENCH_ENGINE_CHROMIUM_DISK=1: a profile on disk, so each commit is a write to LevelDB's files, as in a person's browser.
  const onDisk = process.env.BENCH_ENGINE_CHROMIUM_DISK === '1';
  let close: () => Promise<void> = async () => {};
  try {
    // The engine, Dexie and zod with it, minified as the app's build is.
    await bundlePage(ENTRY, outDir, 'engine-page.js');
    let context: BrowserContext;
    let version: string;
    if (onDisk) {
      context = await launchChromiumOnDisk(join(outDir, 'profile'));
      close = () => context.close();
      version = context.browser()?.version() ?? 'Chromium';
    } else {
      const browser = await launchChromium();
      close = () => browser.close();
      context = await browser.newContext();
      version = browser.version();
    }
    await serveBundle(context, ORIGIN, outDir, PAGE);
    const page = await context.newPage();
    page.on('console', (message) => log(message.text()));
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => window.benchEngine !== undefined, undefined, { timeout: 30_000 });
    log(`Chromium ${version}, IndexedDB ${onDisk ? 'on disk' : 'in memory (off the record)'}: warming up…`);
    await page.evaluate(() => window.benchEngine!.warmUp());
    await page.waitForTimeout(settleMs);
    const timed: TurnTimings[] = [];
    const cpuBefore = await chromiumCpu(context);
    for (let run = 1; run <= runs; run++) {
      log(`Pausepoint + Dexie on Chromium's IndexedDB: run ${run} of ${runs}…`);
      timed.push(await page.evaluate((label) => window.benchEngine!.timed(label), `measured-${run}`));
    }
    const cpuAfter = await chromiumCpu(context);
    if (cpuBefore && cpuAfter) {
      const turns = timed.reduce((sum, run) => sum + run.perTurn.length, 0);
      const perTurn = (type: string) => ((cpuAfter.get(type) ?? 0) - (cpuBefore.get(type) ?? 0)) / turns;
      const types = [...cpuAfter.keys()].sort();
      const total = types.reduce((sum, type) => sum + perTurn(type), 0);
      // What the turns cost the machine, waits for a core left out: the figure to compare on a busy machine.
      log(`Chromium's CPU time over the timed runs: ${total.toFixed(2)} ms per turn (${types.map((type) => `${type} ${perTurn(type).toFixed(2)}`).join(', ')})`);
    }
    // BENCH_ENGINE_TRACE=1: one more conversation, untimed, with every port call and transaction measured (port-trace.ts).
    if (process.env.BENCH_ENGINE_TRACE === '1') {
      log('Tracing one more conversation (storage port calls and IndexedDB transactions)…');
      for (const line of await page.evaluate(() => window.benchEngine!.traced('traced'))) log(line);
    }
    // The same turns' IndexedDB requests replayed with no engine and no Dexie (idb-floor.ts).
    let floor: FloorFigures | undefined;
    if (process.env.BENCH_ENGINE_FLOOR !== '0') {
      log('Recording one more conversation and replaying its IndexedDB requests bare…');
      floor = await page.evaluate(() => window.benchEngine!.floor('floor', 3));
      for (const line of formatFloor(floor)) log(line);
    }
    return { timings: medianPerTurn(timed), ...(floor ? { floor } : {}) };
  } finally {
    await close();
    await rm(outDir, { recursive: true, force: true });
  }
}
