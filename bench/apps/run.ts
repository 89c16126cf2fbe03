/**
 * `npm run bench:apps`: an MCP App's view on its call's row (issue 36), in
 * Chromium over a production build, against ext-apps' example server
 * (`get-time`, tests/e2e/mcp-basic-app.ts) and the fake model on loopback.
 * It measures the time from a stored result to its view given it:
 * McpAppView's `data-painted-ms`, from the row rendering the stored call to
 * the view initialised and handed the stored arguments and result (the
 * reconnection to the server and its `resources/read` included), over
 * reloads of one conversation, each of which renders the view again from the
 * record.
 *
 * Chromium is the full browser, as the other benches launch it; in the
 * headless shell the end-to-end tests run in
 * (PAUSEPOINT_CHROMIUM=/usr/bin/chromium-headless-shell) the figure is about
 * half, so say which one a figure was taken in (the bench prints it).
 *
 * The view runs on a second origin, as playwright.config.ts arranges it: the
 * app is opened at localhost, the sandbox proxy served by the same preview at
 * 127.0.0.1. The build writes that origin into the page's policy and the
 * preview into its headers, so both are started with PAUSEPOINT_SANDBOX_ORIGIN
 * (inherited from this process); without it no view is shown at all.
 *
 * Environment: BENCH_APPS_RELOADS (default 15); BENCH_APPS_DIST=<dir> serves
 * an existing build instead of building, which must have been built with the
 * PAUSEPOINT_SANDBOX_ORIGIN=http://127.0.0.1:<port> given here too (the
 * bench then serves it on that port).
 */
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { findChromium } from '../../scripts/chromium.mjs';
import { card, send } from '../../tests/e2e/app.ts';
import { startBasicAppServer } from '../../tests/e2e/mcp-basic-app.ts';
import { addClock, CLOCK_VIEW } from '../../tests/e2e/mcp-apps-server.ts';
import { startFakeLlm } from '../../tests/fake-llm/index.ts';
import { p50p90 } from '../latency/percentile.ts';
import { setUpEndpoint } from '../latency/set-up-endpoint.ts';
import { launchChromium, newProfile, waitForServiceWorker } from '../ui/browser.ts';
import { appBuild, freePort, startPreview } from '../ui/preview-server.ts';

const RELOADS = Number(process.env.BENCH_APPS_RELOADS ?? 15);
const PREBUILT = process.env.BENCH_APPS_DIST ? resolve(process.env.BENCH_APPS_DIST) : undefined;
/** Reloads made first and not counted: the first loads compile what later ones take from V8's code cache. */
const WARM_UP_RELOADS = 2;
/** Idle time before each reload, so it does not land on the previous view's own work. */
const SETTLE_MS = 200;
const API_KEY = 'sk-bench-apps';
const log = (line: string) => process.stderr.write(`${line}\n`);

if (PREBUILT && !process.env.PAUSEPOINT_SANDBOX_ORIGIN) {
  console.error('BENCH_APPS_DIST needs the PAUSEPOINT_SANDBOX_ORIGIN its build was made with (http://127.0.0.1:<port>).');
  process.exit(2);
}
const sandbox = new URL(process.env.PAUSEPOINT_SANDBOX_ORIGIN ?? `http://127.0.0.1:${await freePort()}`);
if (sandbox.hostname !== '127.0.0.1' || !sandbox.port) throw new Error(`The sandbox origin must be http://127.0.0.1:<port> (the app is opened at localhost on that port), not ${sandbox.origin}`);
process.env.PAUSEPOINT_SANDBOX_ORIGIN = sandbox.origin;
const port = Number(sandbox.port);

const loadBefore = loadavg()[0] ?? 0;
const cleanups: (() => Promise<unknown>)[] = [];
try {
  const build = await appBuild(PREBUILT, 'bench-apps', (dir) => log(`Building the app into ${dir} (sandbox origin ${sandbox.origin})…`));
  cleanups.push(() => build.remove());
  const server = await startPreview(build.dir, port);
  cleanups.unshift(() => server.stop());
  const llm = await startFakeLlm({ requireKey: API_KEY });
  cleanups.unshift(() => llm.close());
  const app = await startBasicAppServer(await freePort());
  cleanups.unshift(() => app.close());
  const browser = await launchChromium();
  cleanups.unshift(() => browser.close());

  const origin = `http://localhost:${port}`;
  log(`vite preview at ${origin} (the view's sandbox at ${sandbox.origin}), ${app.url}, Chromium ${browser.version()}`);
  const context = await newProfile(browser, origin);
  const page = await context.newPage();
  await setUpEndpoint(page, llm, API_KEY);
  // Reloads are a returning person's, under the service worker, with its precache done rather than racing the samples.
  await waitForServiceWorker(page);
  await addClock(page, app, { views: true });
  llm.enqueue({ toolCalls: [{ id: 'call_time', name: 'clock__get-time', arguments: {} }] }, { content: 'Here is the time.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'what time is it on the server?');
  await card(page, 'Call get-time on Clock').getByRole('button', { name: 'Approve' }).click();

  const painted = page.locator(`iframe[title="${CLOCK_VIEW}"][data-painted-ms]`);
  const paintedMs = async () => {
    await painted.waitFor({ state: 'attached', timeout: 30_000 });
    return Number(await painted.getAttribute('data-painted-ms'));
  };
  const firstView = await paintedMs();
  const warmUp: number[] = [];
  const samples: number[] = [];
  for (let i = 1; i <= WARM_UP_RELOADS + RELOADS; i++) {
    log(`Reload ${i} of ${WARM_UP_RELOADS + RELOADS}${i <= WARM_UP_RELOADS ? ' (warm-up)' : ''}…`);
    await page.waitForTimeout(SETTLE_MS);
    await page.reload();
    (i <= WARM_UP_RELOADS ? warmUp : samples).push(await paintedMs());
  }

  const loadAfter = loadavg()[0] ?? 0;
  console.log(`\nMCP App view — Chromium ${browser.version()} (${findChromium()?.path}), ${cpus().length} cores, 1-minute load ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after`);
  console.log(`stored result → view given it (data-painted-ms), ${RELOADS} reloads after ${WARM_UP_RELOADS} warm-up; p50 / p90 by nearest rank:`);
  console.log(`  ${p50p90(samples)}`);
  console.log(`  samples: ${samples.join(', ')} ms`);
  console.log(`  not counted: the view right after the call ${firstView} ms; warm-up reloads ${warmUp.join(', ')} ms`);
} finally {
  for (const cleanup of cleanups) await cleanup().catch((error: unknown) => log(`cleanup: ${String(error)}`));
}
