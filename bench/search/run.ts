import 'fake-indexeddb/auto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Dexie from 'dexie';
import '../../src/zod-config.ts';
import { SearchIndex } from '../../src/search/search-index.ts';
import { SearchService } from '../../src/search/search-service.ts';
import { cardText, messageText } from '../../src/search/searchable-text.ts';
import { PausepointDb } from '../../src/storage/db.ts';
import { corpus } from './corpus.ts';

/**
 * `npm run bench:search`: conversation search over 100,000 messages
 * (BENCH_SEARCH_MESSAGES sets the size), in Node, in two parts.
 *  1. The index alone, fed the records from memory, in a heap that holds
 *     nothing else — as a worker's heap holds the index while the browser's
 *     IndexedDB lives in another process: its build time, the heap it keeps
 *     (after a full GC, before and after), and its queries.
 *  2. The worker's service on fake-indexeddb: the first use's build from the
 *     stored records (a page of 500 per transaction, as in the worker), and
 *     the whole answer to `searchConversations` (the index, then the matched
 *     records read back for 50 snippets). fake-indexeddb keeps the whole
 *     database in this heap, so garbage collection here costs more than in a
 *     worker (see bench:audit's note in the README).
 * Queries: p50 and p95 over 41 runs of each of seven kinds, once warm.
 * Targets: query p50 ≤ 50 ms (the issue's); build ≤ 10 s and heap ≤ 150 MB
 * for the index alone (ours, for a worker that builds it on first use).
 */
const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 100_000);
const QUERY_TARGET_MS = 50;
const INDEX_BUILD_TARGET_MS = 10_000;
const SIZE_TARGET_MB = 150;
const RUNS = 41;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const mark = (ok: boolean) => (ok ? 'ok' : 'OVER');

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
  return { p50: percentile(all, 0.5), lines };
}

// 1. The index alone.
let conversations = 0;
let cards = 0;
let title = '';
const before = heap();
const indexStarted = performance.now();
const index = new SearchIndex();
for (const { conversation: c, messages, cards: made } of corpus(MESSAGES)) {
  if (conversations++ === 600) title = c.title;
  index.putConversation(c.id, c.title, c.updatedAt);
  for (const m of messages) index.putText(m.conversationId, { kind: 'message', messageId: m.id }, messageText(m), m.createdAt);
  for (const p of made) index.putText(p.conversationId, { kind: 'card', pausePointId: p.id }, cardText(p), p.createdAt);
  cards += made.length;
}
const indexBuildMs = performance.now() - indexStarted;
const sizeMb = (heap() - before) / 1e6;
const queries = queriesFor(title || 'a title');
const alone = await timeQueries((query) => index.search(query, 50).total, queries);
const documents = index.size;

// 2. The worker's service on fake-indexeddb.
console.log(`Seeding ${MESSAGES.toLocaleString('en')} messages into fake-indexeddb…`);
const db = new PausepointDb(`bench-search-${Date.now()}`);
for (const { conversation, messages, cards: made } of corpus(MESSAGES)) {
  await db.transaction('rw', [db.conversations, db.messages, db.pausePoints], async () => {
    await db.conversations.put(conversation);
    await db.messages.bulkPut(messages);
    await db.pausePoints.bulkPut(made);
  });
}
const service = new SearchService(db);
const buildStarted = performance.now();
await service.warm();
const buildMs = performance.now() - buildStarted;
const whole = await timeQueries(async (query) => (await service.search(query, 50)).total, queries);
service.close();
db.close();
await Dexie.delete(db.name);

console.log('');
console.log(
  `bench:search — ${MESSAGES.toLocaleString('en')} messages, ${conversations.toLocaleString('en')} conversations, ${cards.toLocaleString('en')} cards, ${documents.toLocaleString('en')} documents; Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log('1. The index alone (heap holding nothing else):');
for (const line of alone.lines) console.log(line);
console.log('2. The worker’s whole answer on fake-indexeddb (index, then 50 snippets read back):');
for (const line of whole.lines) console.log(line);
console.log('');
console.log(`query p50, index alone:        ${ms(alone.p50).padStart(10)}   target ≤ ${QUERY_TARGET_MS} ms   ${mark(alone.p50 <= QUERY_TARGET_MS)}`);
console.log(`query p50, whole answer:       ${ms(whole.p50).padStart(10)}   target ≤ ${QUERY_TARGET_MS} ms   ${mark(whole.p50 <= QUERY_TARGET_MS)}`);
console.log(`build, index alone:            ${ms(indexBuildMs).padStart(10)}   target ≤ ${INDEX_BUILD_TARGET_MS / 1000} s    ${mark(indexBuildMs <= INDEX_BUILD_TARGET_MS)}`);
console.log(`build from fake-indexeddb:     ${ms(buildMs).padStart(10)}   (no target: fake-indexeddb's reads and GC)`);
console.log(`index size (heap kept):        ${`${sizeMb.toFixed(1)} MB`.padStart(10)}   target ≤ ${SIZE_TARGET_MB} MB  ${mark(sizeMb <= SIZE_TARGET_MB)}`);
if (whole.p50 > QUERY_TARGET_MS) process.exitCode = 1;
