/**
 * `npm run bench:audit`: exports 100,000 pause points and compares the export
 * with a bare `JSON.stringify` of the same rows, in the same run, on two
 * harnesses (compare-export.ts holds what they share):
 * - Node, where both sides run against fake-indexeddb (an in-memory IndexedDB
 *   in JavaScript), so both pay its per-record read cost and its database
 *   sits in the same heap;
 * - a page of Chromium on its own IndexedDB (run-in-chromium.ts), where the
 *   export runs for real: reads are native, the rows live in the browser's
 *   process, and the page's heap holds only what the page reads.
 * The comparison within a harness is the point. BENCH_AUDIT_CHROMIUM=0 leaves
 * the page out; BENCH_AUDIT_CHROMIUM=only runs the page alone.
 *
 * Memory is measured twice, because the JavaScript heap in Node also holds the
 * whole fake database (hundreds of MB), and V8 lets garbage grow in proportion
 * to the live heap before it collects:
 * - "heap peak": the highest `heapUsed + arrayBuffers` (in the page,
 *   `performance.memory.usedJSHeapSize`) seen during the timed
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
import { PausepointDb } from '../../src/storage/db.ts';
import { compareExport, formatComparison, secs, type Comparison } from './compare-export.ts';
import { compareInChromium } from './run-in-chromium.ts';
import { seedBenchDb } from './seed-bench-db.ts';

const PAUSE_POINTS = Number(process.env.BENCH_AUDIT_PAUSE_POINTS ?? 100_000);
/** The export's page size (its default unless set): how many pause points are joined, chained and written per chunk. */
const PAGE_SIZE = process.env.BENCH_AUDIT_PAGE_SIZE ? Number(process.env.BENCH_AUDIT_PAGE_SIZE) : undefined;
const CHROMIUM = process.env.BENCH_AUDIT_CHROMIUM;

async function inNode(): Promise<Comparison> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const db = new PausepointDb(`bench-audit-${Date.now()}`);
  await db.open();
  const start = performance.now();
  const seeded = await seedBenchDb(db, PAUSE_POINTS);
  console.log(
    `Seeded ${seeded.pausePoints.toLocaleString('en')} pause points, ${seeded.messages.toLocaleString('en')} messages, ` +
      `${seeded.ledger.toLocaleString('en')} ledger entries, ${seeded.conversations.toLocaleString('en')} conversations into fake-indexeddb in ${secs(performance.now() - start)}.`,
  );
  try {
    return await compareExport(
      db,
      {
        gc,
        used: () => {
          const { heapUsed, arrayBuffers } = process.memoryUsage();
          return heapUsed + arrayBuffers;
        },
        byteLength: (text) => Buffer.byteLength(text, 'utf8'),
      },
      { pageSize: PAGE_SIZE },
    );
  } finally {
    db.close();
  }
}

const rows: string[][] = [];
if (CHROMIUM !== 'only') rows.push(formatComparison('Node, fake-indexeddb', await inNode()));
// After Node's run, so neither measures beside the other's threads.
if (CHROMIUM !== '0') {
  const { version, comparison } = await compareInChromium(PAUSE_POINTS, PAGE_SIZE, (line) => console.log(line));
  rows.push(formatComparison(`Chromium ${version.split('.')[0]}, its IndexedDB`, comparison));
}
for (const lines of rows) console.log(`\n${lines.join('\n')}`);
