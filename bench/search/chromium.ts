import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import type { PausepointDb } from '../../src/storage/db.ts';
import type { WorkerClient } from '../../src/worker/worker-client.ts';
import { workerHeapProbe } from '../sync/cdp-heap.ts';
import { launchChromium, newProfile } from '../ui/browser.ts';
import { formatSummary, sourceResolver, summarize, type Profile } from '../ui/cpu-profile.ts';
import { appBuild, startPreview } from '../ui/preview-server.ts';
import { corpus } from './corpus.ts';

interface ProbeWindow {
  probe: { db: PausepointDb; client: WorkerClient };
}

export interface ChromiumSearchFigures {
  buildMs: number;
  firstSearchMs: number;
  firstFound: number;
  keptMb: number;
  queries: { label: string; query: string; total: number; p50: number; p95: number }[];
  p50: number;
  p95: number;
}

const PROBE = '/tests/e2e/probe/worker-probe.html';
/** BENCH_SEARCH_DIST=<dir>: serve that build (made with PAUSEPOINT_PROBES=1) instead of building one, so two builds' runs can alternate in the same minutes. */
const PREBUILT = process.env.BENCH_SEARCH_DIST ? resolve(process.env.BENCH_SEARCH_DIST) : undefined;
const RUNS = 21;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function openProbe(page: Page): Promise<void> {
  await page.goto(PROBE);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
}

/**
 * The stored index in real Chromium, through the app's own worker (the probe
 * page of the end-to-end build, PAUSEPOINT_PROBES=1): the corpus written
 * into the app's database; the build, as the first tab's worker makes it on
 * the search field's focus (`searchConversations('')`); then that tab
 * closed and a new one opened, and its worker's first search, the heap it
 * keeps (CDP, after a full GC, before and after the search) and the seven
 * kinds of query, timed in the page around `searchConversations`.
 */
export async function searchInChromium(messages: number, queries: { label: string; query: string }[]): Promise<ChromiumSearchFigures> {
  // The probe page the corpus is written through is in the end-to-end build only.
  if (!PREBUILT) process.env.PAUSEPOINT_PROBES = '1';
  const build = await appBuild(PREBUILT, 'bench-search');
  const server = await startPreview(build.dir);
  const browser = await launchChromium();
  try {
    const context = await newProfile(browser, server.origin);
    const first = await context.newPage();
    await openProbe(first);
    let batch: ReturnType<typeof corpus> extends Generator<infer T> ? T[] : never = [];
    const write = async () => {
      await first.evaluate(async (items) => {
        const { db } = (window as unknown as ProbeWindow).probe;
        await db.transaction('rw', [db.conversations, db.messages, db.pausePoints], async () => {
          await db.conversations.bulkPut(items.map((i) => i.conversation));
          await db.messages.bulkPut(items.flatMap((i) => i.messages));
          await db.pausePoints.bulkPut(items.flatMap((i) => i.cards));
        });
      }, batch);
      batch = [];
    };
    for (const item of corpus(messages)) {
      batch.push(item);
      if (batch.length === 40) await write();
    }
    if (batch.length > 0) await write();

    // BENCH_SEARCH_PROFILE=<file>: the agent worker's CPU profile of the build, summarised here and written whole.
    const profilePath = process.env.BENCH_SEARCH_PROFILE;
    if (profilePath) await first.evaluate(() => (window as unknown as ProbeWindow).probe.client.decide('no-such-card', { type: 'approve', viewHash: '0'.repeat(64) }));
    const worker = profilePath ? await workerHeapProbe(browser, 'agent.worker') : null;
    const stopProfile = await worker?.profile();
    const buildMs = await first.evaluate(async () => {
      const started = performance.now();
      await (window as unknown as ProbeWindow).probe.client.searchConversations('', 1);
      return performance.now() - started;
    });
    if (stopProfile && profilePath) {
      await stopProfile(profilePath);
      const profile = JSON.parse(await readFile(profilePath, 'utf8')) as Profile;
      console.log(formatSummary(`The build's CPU profile in the agent worker (${profilePath}):`, summarize(profile, { resolve: sourceResolver(build.dir), top: 25 })));
      await worker!.close();
    }
    await first.close();

    const fresh = await context.newPage();
    await openProbe(fresh);
    // Once the worker answers an intent (a decision on no card: its database open, nothing of search loaded), its heap is the baseline.
    await fresh.evaluate(() => (window as unknown as ProbeWindow).probe.client.decide('no-such-card', { type: 'approve', viewHash: '0'.repeat(64) }));
    const freshHeap = await workerHeapProbe(browser, 'agent.worker');
    await freshHeap.collectGarbage();
    const before = await freshHeap.used();
    const { ms: firstSearchMs, total: firstFound } = await fresh.evaluate(async () => {
      const started = performance.now();
      const { total } = await (window as unknown as ProbeWindow).probe.client.searchConversations('invoice', 50);
      return { ms: performance.now() - started, total };
    });
    await freshHeap.collectGarbage();
    const keptMb = ((await freshHeap.used()) - before) / 1e6;
    await freshHeap.close();

    const all: number[] = [];
    const timed: ChromiumSearchFigures['queries'] = [];
    for (const { label, query } of queries) {
      const { times, total } = await fresh.evaluate(
        async ({ query, runs }) => {
          const { client } = (window as unknown as ProbeWindow).probe;
          for (let i = 0; i < 3; i++) await client.searchConversations(query, 50);
          const times: number[] = [];
          let total = 0;
          for (let i = 0; i < runs; i++) {
            const started = performance.now();
            total = (await client.searchConversations(query, 50)).total;
            times.push(performance.now() - started);
          }
          return { times, total };
        },
        { query, runs: RUNS },
      );
      all.push(...times);
      timed.push({ label, query, total, p50: percentile(times, 0.5), p95: percentile(times, 0.95) });
    }
    await context.close();
    return { buildMs, firstSearchMs, firstFound, keptMb, queries: timed, p50: percentile(all, 0.5), p95: percentile(all, 0.95) };
  } finally {
    await browser.close();
    await server.stop();
    await build.remove();
  }
}
