import 'fake-indexeddb/auto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Dexie from 'dexie';
import MiniSearch from 'minisearch';
import '../../src/zod-config.ts';
import { MemoryLocks } from '../../src/engine/testing/memory-locks.ts';
import { SearchService } from '../../src/search/search-service.ts';
import { wordSegments, wordTerms } from '../../src/search/word-segments.ts';
import { PausepointDb } from '../../src/storage/db.ts';
import { corpus } from './corpus.ts';
import { searchInChromium, type ChromiumSearchFigures } from './chromium.ts';
import { MiniSearchBlocks } from './minisearch-blocks.ts';

/**
 * `npm run bench:search`: conversation search over 100,000 messages
 * (BENCH_SEARCH_MESSAGES sets the size), in Node, each figure beside the one
 * measured before the index was stored (README, *Search*) and the issue's
 * target.
 *  1. The stored index (src/search) on fake-indexeddb: the build from
 *     scratch, then a new tab — a second connection and service, as a worker
 *     of a tab opened later — and its first search (loading what it keeps in
 *     memory, then the query), the heap that tab keeps (after a full GC,
 *     before and after), and the whole answer to `searchConversations`
 *     (postings, then the 50 matched records read back for snippets) for
 *     seven kinds of query. fake-indexeddb keeps the whole database in this
 *     heap and is slower than a browser's IndexedDB.
 *  2. The candidate it was chosen over: MiniSearch with block documents in
 *     memory (bench/search/minisearch-blocks.ts): its build, the heap it
 *     keeps, its queries, and its persistence — the JSON snapshot a new tab
 *     would load whole.
 *  3. The stored index in Chromium, through the app's own worker
 *     (bench/search/chromium.ts): the build, a new tab's first search, the
 *     heap its worker keeps, the queries (BENCH_SEARCH_CHROMIUM=0 leaves it
 *     out).
 * Queries: p50 and p95 over 41 runs of each kind (21 in Chromium), once warm, and over all.
 */
const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 100_000);
const RUNS = 41;
const TARGET = { firstSearchMs: 1_000, buildMs: 10_000, heapMb: 40, p50: 30, p95: 100 };
const TODAY = { firstSearch: '36 s build + query', build: '36 s', heap: '177 MB', p50: '34 ms', p95: '340 ms' };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const load = () => `load ${loadavg()[0]!.toFixed(1)}`;

/** Seven kinds of query over the corpus; the mid-word title is cut from a title it holds. */
function queriesFor(title: string) {
  return [
    { label: 'a common word', query: 'invoice' },
    { label: 'a rare word', query: 'kabkota' },
    { label: 'two words', query: 'budget meeting' },
    { label: 'a prefix being typed', query: 'sched' },
    { label: 'folded: Zurich, cafe', query: 'zurich cafe' },
    { label: 'a title, mid-word', query: title.slice(2, 9) },
    { label: 'no match', query: 'xylophonequartz' },
  ];
}

async function timeQueries(run: (query: string) => number | Promise<number>, queries: { label: string; query: string }[]) {
  const all: number[] = [];
  const lines: string[] = [];
  for (const { label, query } of queries) {
    for (let i = 0; i < 3; i++) await run(query);
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      total = await run(query);
      times.push(performance.now() - started);
    }
    all.push(...times);
    lines.push(`  ${label.padEnd(22)} ${JSON.stringify(query).padEnd(18)} ${String(total).padStart(5)} found   p50 ${ms(percentile(times, 0.5)).padStart(9)}   p95 ${ms(percentile(times, 0.95)).padStart(9)}`);
  }
  return { p50: percentile(all, 0.5), p95: percentile(all, 0.95), lines };
}

const row = (label: string, value: string, today: string, target: string, ok: boolean) =>
  console.log(`${label.padEnd(44)} ${value.padStart(12)}   today ${today.padEnd(20)} target ${target.padEnd(9)} ${ok ? 'ok' : 'OVER'}`);

function chromiumRows(chromium: ChromiumSearchFigures): void {
  console.log('In Chromium, through the app’s worker:');
  row('first search in a new tab', ms(chromium.firstSearchMs), TODAY.firstSearch, `≤ ${TARGET.firstSearchMs / 1000} s`, chromium.firstSearchMs <= TARGET.firstSearchMs && chromium.firstFound > 0);
  row('build from scratch', ms(chromium.buildMs), TODAY.build, `≤ ${TARGET.buildMs / 1000} s`, chromium.buildMs <= TARGET.buildMs);
  row('kept in a worker’s heap', `${chromium.keptMb.toFixed(1)} MB`, TODAY.heap, `≤ ${TARGET.heapMb} MB`, chromium.keptMb <= TARGET.heapMb);
  row('query p50, all kinds', ms(chromium.p50), TODAY.p50, `≤ ${TARGET.p50} ms`, chromium.p50 <= TARGET.p50);
  row('query p95, all kinds', ms(chromium.p95), TODAY.p95, `≤ ${TARGET.p95} ms`, chromium.p95 <= TARGET.p95);
}

// BENCH_SEARCH_CHROMIUM=only: the Chromium part alone (minutes instead of ten), for before/after pairs.
if (process.env.BENCH_SEARCH_CHROMIUM === 'only') {
  let at = 0;
  let title = '';
  for (const { conversation } of corpus(MESSAGES)) if (at++ === 600) title = conversation.title;
  const started = load();
  const chromium = await searchInChromium(MESSAGES, queriesFor(title || 'a title'));
  console.log(`\nbench:search, Chromium alone — ${MESSAGES.toLocaleString('en')} messages (${started} at its start, ${load()} at its end)`);
  chromiumRows(chromium);
  process.exit(0);
}

// 1. The stored index.
console.log(`Seeding ${MESSAGES.toLocaleString('en')} messages into fake-indexeddb…`);
const db = new PausepointDb(`bench-search-${Date.now()}`);
let conversations = 0;
let cards = 0;
let title = '';
for (const { conversation, messages, cards: made } of corpus(MESSAGES)) {
  if (conversations++ === 600) title = conversation.title;
  cards += made.length;
  await db.transaction('rw', [db.conversations, db.messages, db.pausePoints], async () => {
    await db.conversations.put(conversation);
    await db.messages.bulkPut(messages);
    await db.pausePoints.bulkPut(made);
  });
}
const queries = queriesFor(title || 'a title');
const locks = new MemoryLocks();
const builder = new SearchService(db, locks);
const buildLoad = load();
const buildStarted = performance.now();
await builder.warm();
const buildMs = performance.now() - buildStarted;
builder.close();
const terms = await db.searchTerms.count();
const blocks = await db.searchBlocks.count();

// A tab opened later: its own connection and service, the index already stored.
const tabDb = new PausepointDb(db.name);
await tabDb.open();
const before = heap();
const tab = new SearchService(tabDb, locks);
const firstLoad = load();
const firstStarted = performance.now();
const first = await tab.search('invoice', 50);
const firstSearchMs = performance.now() - firstStarted;
const keptMb = (heap() - before) / 1e6;
const queryLoad = load();
const stored = await timeQueries(async (query) => (await tab.search(query, 50)).total, queries);
tab.close();
tabDb.close();
db.close();
await Dexie.delete(db.name);

// 2. MiniSearch with block documents, in memory.
const miniBefore = heap();
const miniLoad = load();
const miniStarted = performance.now();
const mini = new MiniSearchBlocks();
for (const { conversation, messages, cards: made } of corpus(MESSAGES)) mini.add(conversation, messages, made);
const miniBuildMs = performance.now() - miniStarted;
const miniMb = (heap() - miniBefore) / 1e6;
const miniQueries = await timeQueries((query) => mini.search(query, 50).total, queries);
const snapshotStarted = performance.now();
const snapshot = JSON.stringify(mini.mini);
const snapshotMs = performance.now() - snapshotStarted;
const loadStarted = performance.now();
MiniSearch.loadJSON(snapshot, { fields: ['text'], tokenize: (text) => wordSegments(text).map(({ segment }) => segment), processTerm: (term) => wordTerms(term) });
const snapshotLoadMs = performance.now() - loadStarted;

const chromiumLoad = load();
const chromium = process.env.BENCH_SEARCH_CHROMIUM === '0' ? null : await searchInChromium(MESSAGES, queries);

console.log('');
console.log(
  `bench:search — ${MESSAGES.toLocaleString('en')} messages, ${conversations.toLocaleString('en')} conversations, ${cards.toLocaleString('en')} cards; Node ${process.version}, ${cpus().length} cores`,
);
console.log(`1. The stored index on fake-indexeddb (${terms.toLocaleString('en')} terms, ${blocks.toLocaleString('en')} blocks); the whole answer (postings, then 50 snippets read back), ${queryLoad}:`);
for (const line of stored.lines) console.log(line);
console.log(`2. MiniSearch 7.2 with block documents, in memory (the candidate), ${load()}:`);
for (const line of miniQueries.lines) console.log(line);
console.log(
  `   build ${ms(miniBuildMs)} (${miniLoad}), heap kept ${miniMb.toFixed(1)} MB, query p50 ${ms(miniQueries.p50)} / p95 ${ms(miniQueries.p95)}; persisted as a snapshot: ${(snapshot.length / 1e6).toFixed(1)} MB of JSON written in ${ms(snapshotMs)}, loaded whole by each new tab in ${ms(snapshotLoadMs)}`,
);
if (chromium) {
  console.log(`3. The stored index in Chromium, through the app's worker (${chromiumLoad} at its start, ${load()} at its end):`);
  for (const q of chromium.queries) {
    console.log(`  ${q.label.padEnd(22)} ${JSON.stringify(q.query).padEnd(18)} ${String(q.total).padStart(5)} found   p50 ${ms(q.p50).padStart(9)}   p95 ${ms(q.p95).padStart(9)}`);
  }
}
console.log('');
if (chromium) {
  chromiumRows(chromium);
  console.log('In Node, on fake-indexeddb:');
}
row(`first search in a new tab (${firstLoad})`, ms(firstSearchMs), TODAY.firstSearch, `≤ ${TARGET.firstSearchMs / 1000} s`, firstSearchMs <= TARGET.firstSearchMs && first.total > 0);
row(`build from scratch (${buildLoad})`, ms(buildMs), TODAY.build, `≤ ${TARGET.buildMs / 1000} s`, buildMs <= TARGET.buildMs);
row('kept in a worker’s heap', `${keptMb.toFixed(1)} MB`, TODAY.heap, `≤ ${TARGET.heapMb} MB`, keptMb <= TARGET.heapMb);
row(`query p50, all kinds (${queryLoad})`, ms(stored.p50), TODAY.p50, `≤ ${TARGET.p50} ms`, stored.p50 <= TARGET.p50);
row(`query p95, all kinds (${queryLoad})`, ms(stored.p95), TODAY.p95, `≤ ${TARGET.p95} ms`, stored.p95 <= TARGET.p95);
if (stored.p50 > TARGET.p50 || stored.p95 > TARGET.p95) process.exitCode = 1;
