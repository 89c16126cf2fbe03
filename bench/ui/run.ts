/**
 * `npm run bench:ui`: the app's own figures in real Chromium over a fresh
 * production build (issue 4's benchmark):
 *   1. navigation → first pending card visible, with 1,000 conversations,
 *      100,000 messages and 10,000 pause points (20 pending), against a
 *      database holding settings and one conversation with one pending card;
 *      on the Approvals inbox and on the conversation that holds the card;
 *   2. main-thread long tasks while a 10,000-token answer streams in;
 *   3. gzip sizes of the page's JavaScript and of the worker.
 * Each figure that wall-clock time decides also comes with the main thread's
 * CPU time from a Chrome trace: on a busy machine the two part ways.
 *
 * Environment: BENCH_UI_RUNS (timed loads per case, default 5);
 * BENCH_UI_DIST=<dir> serves an existing build instead of building one (to set two builds side by side);
 * BENCH_UI_PROFILE=<folder> for diagnostics — CPU profiles saved there and
 * summarised by source file, the page's IndexedDB transactions per load, and
 * two more databases that take the big one's costs apart.
 */
import { mkdir } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext } from '@playwright/test';
import { startFakeLlm } from '../../tests/fake-llm/index.ts';
import { startBlankPage } from './blank-page.ts';
import { launchChromium, newProfile, waitForServiceWorker } from './browser.ts';
import { bundleSizes } from './bundle-sizes.ts';
import { formatSummary, sourceResolver } from './cpu-profile.ts';
import { formatIdbTimeline } from './idb-timeline.ts';
import { longAnswer } from './long-answer.ts';
import { longTasksWhileStreaming, type StreamRun } from './long-tasks-while-streaming.ts';
import { appBuild, startPreview } from './preview-server.ts';
import { formatTable, ms } from './print-report.ts';
import { cardReport, sizeRows, streamReport, type CardResults } from './report-rows.ts';
import { seedInPage, type SeedPlan, type SeededCard, type SeedSummary } from './seed-in-page.ts';
import { timeToCard, type CardTiming } from './time-to-card.ts';

const RUNS = Number(process.env.BENCH_UI_RUNS ?? 5);
const PROFILE_DIR = process.env.BENCH_UI_PROFILE ? resolve(process.env.BENCH_UI_PROFILE) : undefined;
const ANSWER_TOKENS = 10_000;
const STREAM = { chunkSize: 4, chunkDelayMs: 1 };

const DEMO_SETTINGS = {
  v: 1,
  provider: 'demo',
  baseUrl: 'https://demo.pausepoint.invalid/v1',
  apiKey: '',
  model: 'pausepoint-demo',
  expiryMinutes: null,
  notifications: false,
  badge: false,
};
const NOW = Date.now();
const EMPTY_PLAN: SeedPlan = { conversations: 1, messagesPerConversation: 10, pendingConversations: 1, settings: DEMO_SETTINGS, now: NOW };
/** A control for the conversation view: the big database's conversation (100 messages) with nothing else stored. */
const LONG_CONVERSATION_PLAN: SeedPlan = { ...EMPTY_PLAN, messagesPerConversation: 100 };
const BIG_PLAN: SeedPlan = { conversations: 1_000, messagesPerConversation: 100, pendingConversations: 20, settings: DEMO_SETTINGS, now: NOW };
/**
 * Diagnostics only: the big database's costs for the inbox taken apart — its 20
 * pending cards; a full first page of the sidebar (50 conversations); all 1,000
 * conversations read.
 */
const ABLATIONS: Record<string, SeedPlan> = {
  '20cards': { ...EMPTY_PLAN, conversations: 20, pendingConversations: 20 },
  '50conv': { ...EMPTY_PLAN, conversations: 50, pendingConversations: 1 },
  '1000conv': { ...EMPTY_PLAN, conversations: 1_000, pendingConversations: 1 },
};

const log = (line: string) => process.stderr.write(`${line}\n`);

interface CardCase {
  route: CardResults['route'];
  db: string;
  profile: Pick<SeededProfile, 'context' | 'card'>;
  path: (card: SeededCard) => string;
}

interface SeededProfile {
  context: BrowserContext;
  seeded: SeedSummary;
  card: SeededCard;
}

/** A new browser profile: the app opened once (creating its database), the plan written, the service worker in control. */
async function seededProfile(browser: Browser, origin: string, plan: SeedPlan): Promise<SeededProfile> {
  const context = await newProfile(browser, origin);
  const page = await context.newPage();
  await page.goto('/');
  const seeded = await page.evaluate(seedInPage, plan);
  if (!seeded.firstPending) throw new Error('The seed plan made no pending card');
  await page.goto('/#/approvals');
  await page.reload();
  await waitForServiceWorker(page);
  await page.close();
  return { context, seeded, card: seeded.firstPending };
}

/** Points a profile's settings at the fake model server (the row written directly, as a save would). */
async function useFakeModel(context: BrowserContext, baseUrl: string): Promise<void> {
  const page = await context.newPage();
  await page.goto('/#/new');
  const settings = { ...DEMO_SETTINGS, provider: 'custom', baseUrl, apiKey: 'sk-bench', model: 'fake-model' };
  await page.evaluate(seedInPage, { conversations: 0, messagesPerConversation: 10, pendingConversations: 0, settings, now: NOW });
  await page.close();
}

const loadBefore = loadavg()[0] ?? 0;
const started = performance.now();
if (PROFILE_DIR) await mkdir(PROFILE_DIR, { recursive: true });
const cleanups: (() => Promise<unknown>)[] = [];
try {
  const build = await appBuild(process.env.BENCH_UI_DIST ? resolve(process.env.BENCH_UI_DIST) : undefined, 'bench-ui', (dir) => log(`Building the app into ${dir}…`));
  cleanups.push(() => build.remove());
  const outDir = build.dir;
  const sizes = await bundleSizes(outDir);

  const server = await startPreview(outDir);
  cleanups.unshift(() => server.stop());
  const llm = await startFakeLlm();
  cleanups.unshift(() => llm.close());
  const browser = await launchChromium();
  cleanups.unshift(() => browser.close());
  log(`vite preview on ${server.origin}, Chromium ${browser.version()}`);

  log('Seeding the empty database…');
  const empty = await seededProfile(browser, server.origin, EMPTY_PLAN);
  const longConversation = await seededProfile(browser, server.origin, LONG_CONVERSATION_PLAN);
  log('Seeding the big database…');
  const big = await seededProfile(browser, server.origin, BIG_PLAN);
  log(
    `  ${big.seeded.conversations.toLocaleString('en')} conversations, ${big.seeded.messages.toLocaleString('en')} messages, ` +
      `${big.seeded.pausePoints.toLocaleString('en')} pause points (${big.seeded.pending} pending), ${big.seeded.ledger.toLocaleString('en')} ledger entries in ${ms(big.seeded.ms)}`,
  );

  const blank = await startBlankPage(browser);
  cleanups.unshift(() => blank.close());

  const inbox = () => '/#/approvals';
  const conversation = (card: SeededCard) => `/#/c/${encodeURIComponent(card.conversationId)}`;
  const cases: CardCase[] = [
    { route: 'inbox', db: 'empty', profile: empty, path: inbox },
    { route: 'inbox', db: 'big', profile: big, path: inbox },
    { route: 'conversation', db: 'empty', profile: empty, path: conversation },
    { route: 'conversation', db: 'long', profile: longConversation, path: conversation },
    { route: 'conversation', db: 'big', profile: big, path: conversation },
    { route: 'blank', db: 'none', profile: blank, path: () => '/' },
  ];
  if (PROFILE_DIR) {
    for (const [db, plan] of Object.entries(ABLATIONS)) {
      log(`Seeding the ${db} database (diagnostics)…`);
      cases.push({ route: 'inbox', db, profile: await seededProfile(browser, server.origin, plan), path: inbox });
    }
  }
  const timings = new Map<CardCase, CardTiming[]>(cases.map((c) => [c, []]));
  // Run 0 warms each case up (caches, code compiled by V8) and is not counted. The
  // cases take turns, so a burst of load from elsewhere on the machine hits them all.
  for (let run = 0; run <= RUNS; run++) {
    log(run === 0 ? 'Pending card: warm-up loads…' : `Pending card: run ${run} of ${RUNS}…`);
    for (const c of cases) {
      const timing = await timeToCard(c.profile.context, c.path(c.profile.card), c.profile.card);
      if (run > 0) timings.get(c)!.push(timing);
    }
  }

  const resolveSource = sourceResolver(outDir);
  if (PROFILE_DIR) {
    // One more load per case, profiled, with the page's IndexedDB transactions logged.
    for (const c of cases) {
      const profilePath = join(PROFILE_DIR, `card-${c.route}-${c.db}.cpuprofile`);
      const { paintedMs, diagnosis } = await timeToCard(c.profile.context, c.path(c.profile.card), c.profile.card, { profilePath, resolve: resolveSource });
      if (!diagnosis) continue;
      log(formatSummary(`CPU profile: pending card, ${c.route}, ${c.db} database (painted at ${ms(paintedMs)}, under the profiler)`, diagnosis.cpu));
      log(formatIdbTimeline(`IndexedDB: pending card, ${c.route}, ${c.db} database`, diagnosis.idb, paintedMs));
    }
  }

  const answer = longAnswer(ANSWER_TOKENS);
  const streams: { db: string; run: StreamRun }[] = [];
  for (const [db, profile] of [['empty', empty], ['big', big]] as const) {
    log(`Streaming ${answer.length.toLocaleString('en')} characters (${ANSWER_TOKENS.toLocaleString('en')} tokens) into a new chat, ${db} database…`);
    await useFakeModel(profile.context, llm.baseUrl);
    const run = await longTasksWhileStreaming(profile.context, llm, {
      answer,
      ...STREAM,
      profile: PROFILE_DIR ? { path: join(PROFILE_DIR, `stream-${db}.cpuprofile`), resolve: resolveSource } : undefined,
    });
    if (run.profile) {
      log(formatSummary(`CPU profile: streaming, ${db} database, whole stream`, run.profile.whole));
      log(formatSummary(`CPU profile: streaming, ${db} database, inside its 5 heaviest tasks`, run.profile.inHeaviestTasks));
    }
    streams.push({ db, run });
  }

  const cards = cardReport(cases.map((c) => ({ route: c.route, db: c.db, timings: timings.get(c)! })));
  const streaming = streamReport(streams);
  const rows = [...cards.rows, ...streaming.rows, ...sizeRows(sizes)];
  const detail = [...cards.detail, ...streaming.detail];

  const loadAfter = loadavg()[0] ?? 0;
  console.log(`\nPausepoint UI bench — Chromium ${browser.version()}, ${cpus().length} cores, 1-minute load ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after`);
  console.log(
    `empty DB: settings and 1 conversation of ${empty.seeded.messages} messages with 1 pending card. ` +
      `Control: 1 conversation of ${longConversation.seeded.messages} messages with 1 pending card. ` +
      `big DB: ${big.seeded.conversations.toLocaleString('en')} conversations, ${big.seeded.messages.toLocaleString('en')} messages, ` +
      `${big.seeded.pausePoints.toLocaleString('en')} pause points (${big.seeded.pending} pending).`,
  );
  console.log(`Card times: ${RUNS} loads per case after a warm-up, from navigation start (performance.now() in the page) to the frame after the card entered the DOM.`);
  console.log(
    `Stream: ${answer.length.toLocaleString('en')} characters in chunks of ${STREAM.chunkSize} every ${STREAM.chunkDelayMs} ms; long tasks (PerformanceObserver) from Send to "Ready", ` +
      `each matched with its main-thread CPU time in a Chrome trace: on a busy machine wall time exceeds CPU time.\n`,
  );
  console.log(formatTable(rows));
  console.log(`\nDetails:\n${detail.join('\n')}`);
  console.log(`\n${sizes.report}`);
  console.log(`\nTotal bench time ${(((performance.now() - started) / 1000)).toFixed(0)} s.`);
} finally {
  for (const cleanup of cleanups) await cleanup().catch((error: unknown) => log(`cleanup failed: ${String(error)}`));
}
