/**
 * `npm run bench:audit`: exports 100,000 pause points and compares the export
 * with a bare `JSON.stringify` of the same rows, in the same run.
 *
 * Both sides run against fake-indexeddb (an in-memory IndexedDB in JavaScript),
 * so both pay its per-record read cost; the comparison is the point, the
 * absolute numbers say little about a browser's IndexedDB.
 *
 * Memory is measured twice, because the JavaScript heap here also holds the
 * whole fake database (hundreds of MB), and V8 lets garbage grow in proportion
 * to the live heap before it collects:
 * - "heap peak": the highest `heapUsed + arrayBuffers` seen during the timed
 *   run, minus the figure after a full GC just before it. Sampled every 5 ms
 *   and after every export page; a timer cannot fire inside one synchronous
 *   call, so the baseline also samples right after `toArray()` and right after
 *   `JSON.stringify` returns. Includes garbage not yet collected: an upper bound.
 * - "live peak": what is still referenced after a full GC (`--expose-gc`,
 *   switched on at runtime). For the baseline, taken after the timed part ends
 *   while the rows and the text are still referenced (its largest point). For
 *   the export, a second, untimed run forces a GC every 40 pages and samples.
 */
import 'fake-indexeddb/auto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { exportAuditLog } from '../../src/audit/export-audit-log.ts';
import { PausepointDb } from '../../src/storage/db.ts';
import { seedBenchDb } from './seed-bench-db.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PAUSE_POINTS = Number(process.env.BENCH_AUDIT_PAUSE_POINTS ?? 100_000);
/** The export's page size (its default unless set): how many pause points are joined, chained and written per chunk. */
const PAGE_SIZE = process.env.BENCH_AUDIT_PAGE_SIZE ? Number(process.env.BENCH_AUDIT_PAGE_SIZE) : undefined;
const MB = 1024 * 1024;

function used(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

interface Measured<T> {
  value: T;
  ms: number;
  /** Highest sample above `baseline`. */
  peak: number;
  baseline: number;
}

/** Runs `task` after a full GC and reports its time and the peak of `used()` above that baseline. */
async function measure<T>(task: (sample: () => void) => Promise<T>, { timer = true } = {}): Promise<Measured<T>> {
  gc();
  gc();
  const baseline = used();
  let peak = baseline;
  const sample = () => {
    peak = Math.max(peak, used());
  };
  const interval = timer ? setInterval(sample, 5) : undefined;
  const start = performance.now();
  try {
    const value = await task(sample);
    const ms = performance.now() - start;
    sample();
    return { value, ms, peak: peak - baseline, baseline };
  } finally {
    clearInterval(interval);
  }
}

const fmt = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const db = new PausepointDb(`bench-audit-${Date.now()}`);
await db.open();

let start = performance.now();
const seeded = await seedBenchDb(db, PAUSE_POINTS);
console.log(
  `Seeded ${seeded.pausePoints.toLocaleString('en')} pause points, ${seeded.messages.toLocaleString('en')} messages, ` +
    `${seeded.ledger.toLocaleString('en')} ledger entries, ${seeded.conversations.toLocaleString('en')} conversations into fake-indexeddb in ${secs(performance.now() - start)}.`,
);

async function runExport(onPage: (page: number) => void) {
  let bytes = 0;
  let chunks = 0;
  let pages = 0;
  const result = await exportAuditLog(
    db,
    {},
    (chunk) => {
      bytes += Buffer.byteLength(chunk, 'utf8');
      chunks++;
    },
    () => onPage(++pages),
    { deviceId: 'bench-device', ...(PAGE_SIZE ? { pageSize: PAGE_SIZE } : {}) },
  );
  return { bytes, chunks, result };
}

// (b) The same rows read whole with toArray() and stringified.
const stringified = await measure(async (sample) => {
  start = performance.now();
  const rows = {
    conversations: await db.conversations.toArray(),
    pausePoints: await db.pausePoints.toArray(),
    messages: await db.messages.toArray(),
    ledger: await db.ledger.toArray(),
  };
  const readMs = performance.now() - start;
  sample();
  start = performance.now();
  const text = JSON.stringify(rows);
  const stringifyMs = performance.now() - start;
  sample();
  return { readMs, stringifyMs, bytes: Buffer.byteLength(text, 'utf8'), held: [rows, text] as unknown[] };
});
// Outside the timed part, rows and text still referenced (the baseline's largest point): what is live.
gc();
const stringifyLive = used() - stringified.baseline;
stringified.value.held.length = 0;

// (a) The streaming export into a sink that only counts.
const exported = await measure((sample) => runExport(sample));
// The export again, untimed, sampling right after a full GC every 40 pages.
const exportLive = await measure(
  (sample) =>
    runExport((page) => {
      if (page % 40 !== 0) return;
      gc();
      sample();
    }),
  { timer: false },
);

const { bytes: fileBytes, chunks, result } = exported.value;
const timeRatio = exported.ms / stringified.ms;
const liveRatio = exportLive.peak / fileBytes;
const heapRatio = exported.peak / fileBytes;
const row = (name: string, time: string, heap: number, live: number) =>
  console.log(`${name.padEnd(16)}${time.padEnd(44)}heap peak +${fmt(heap).padEnd(11)}live peak +${fmt(live)}`);
console.log('');
console.log(`File: ${fmt(fileBytes)}, ${result.entryCount.toLocaleString('en')} entries in ${chunks} chunks, head hash ${result.headHash}`);
row('Export', secs(exported.ms), exported.peak, exportLive.peak);
row('JSON.stringify', `${secs(stringified.ms)} (toArray ${secs(stringified.value.readMs)} + stringify ${secs(stringified.value.stringifyMs)})`, stringified.peak, stringifyLive);
console.log('');
// The targets of issue 15: at most 2× the time of a bare toArray + JSON.stringify, a heap peak at most 2× the file.
console.log(
  `Time:   export / (toArray + JSON.stringify) = ${timeRatio.toFixed(2)}×  (target ≤ 2×: ${timeRatio <= 2 ? 'met' : 'NOT met'}); ` +
    `export / JSON.stringify alone = ${(exported.ms / stringified.value.stringifyMs).toFixed(1)}×`,
);
console.log(
  `Memory: heap peak incl. garbage / file size = ${heapRatio.toFixed(2)}×  (target ≤ 2×: ${heapRatio <= 2 ? 'met' : 'NOT met'}); ` +
    `live peak / file size = ${liveRatio.toFixed(3)}×`,
);
console.log(`        JSON.stringify: live peak / file size = ${(stringifyLive / fileBytes).toFixed(2)}×, heap peak / file size = ${(stringified.peak / fileBytes).toFixed(2)}×`);

db.close();
