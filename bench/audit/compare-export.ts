import { exportAuditLog } from '../../src/audit/export-audit-log.ts';
import type { PausepointDb } from '../../src/storage/db.ts';

/**
 * bench:audit's comparison, shared by its two harnesses (Node on
 * fake-indexeddb, export-bench.ts; a page of Chromium on its own IndexedDB,
 * chromium/audit-page.ts): the export into a sink that only counts bytes,
 * against `toArray()` of the four tables and `JSON.stringify` of the rows.
 * What each harness supplies is how it reads its heap, forces a GC and
 * counts a string's UTF-8 bytes; the definitions are export-bench.ts's header.
 */
export interface Harness {
  /** The heap figure sampled: Node's `heapUsed + arrayBuffers`, the page's `performance.memory.usedJSHeapSize`. */
  used(): number;
  /** A full, synchronous GC. */
  gc(): void;
  byteLength(text: string): number;
}

/** What one harness measured; plain numbers and strings, so a page can hand it back to the bench. */
export interface Comparison {
  fileBytes: number;
  entryCount: number;
  chunks: number;
  headHash: string;
  exportMs: number;
  /** Heap peak incl. garbage above the post-GC baseline, during the timed export. */
  exportPeak: number;
  /** That baseline: the heap in use after a full GC, before the timed export (in Node, fake-indexeddb's whole database is in it). */
  exportBaseline: number;
  /** Highest heap after a full GC every 40 pages, in an untimed second export. */
  exportLive: number;
  stringifyMs: number;
  readMs: number;
  stringifyOnlyMs: number;
  stringifyPeak: number;
  /** Heap after a full GC at the baseline's end, rows and text still referenced. */
  stringifyLive: number;
}

interface Measured<T> {
  value: T;
  ms: number;
  /** Highest sample above `baseline`. */
  peak: number;
  baseline: number;
}

/** Runs `task` after a full GC and reports its time and the peak of `used()` above that baseline. */
async function measure<T>(harness: Harness, task: (sample: () => void) => Promise<T>, { timer = true } = {}): Promise<Measured<T>> {
  harness.gc();
  harness.gc();
  const baseline = harness.used();
  let peak = baseline;
  const sample = () => {
    peak = Math.max(peak, harness.used());
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

/** One export into a sink that only counts its chunks and their bytes. */
export async function runExport(db: PausepointDb, harness: Harness, pageSize: number | undefined, onPage: (page: number) => void) {
  let bytes = 0;
  let chunks = 0;
  let pages = 0;
  const result = await exportAuditLog(
    db,
    {},
    (chunk) => {
      bytes += harness.byteLength(chunk);
      chunks++;
    },
    () => onPage(++pages),
    { deviceId: 'bench-device', ...(pageSize ? { pageSize } : {}) },
  );
  return { bytes, chunks, result };
}

/** The baseline, then the export timed, then the export again for its live peak; `db` holds seedBenchDb's rows. */
export async function compareExport(db: PausepointDb, harness: Harness, { pageSize }: { pageSize?: number } = {}): Promise<Comparison> {
  // (b) The same rows read whole with toArray() and stringified.
  const stringified = await measure(harness, async (sample) => {
    let start = performance.now();
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
    return { readMs, stringifyMs, bytes: harness.byteLength(text), held: [rows, text] as unknown[] };
  });
  // Outside the timed part, rows and text still referenced (the baseline's largest point): what is live.
  harness.gc();
  const stringifyLive = harness.used() - stringified.baseline;
  stringified.value.held.length = 0;

  // (a) The streaming export into a sink that only counts.
  const exported = await measure(harness, (sample) => runExport(db, harness, pageSize, sample));
  // The export again, untimed, sampling right after a full GC every 40 pages.
  const exportLive = await measure(
    harness,
    (sample) =>
      runExport(db, harness, pageSize, (page) => {
        if (page % 40 !== 0) return;
        harness.gc();
        sample();
      }),
    { timer: false },
  );

  const { bytes, chunks, result } = exported.value;
  return {
    fileBytes: bytes,
    entryCount: result.entryCount,
    chunks,
    headHash: result.headHash,
    exportMs: exported.ms,
    exportPeak: exported.peak,
    exportBaseline: exported.baseline,
    exportLive: exportLive.peak,
    stringifyMs: stringified.ms,
    readMs: stringified.value.readMs,
    stringifyOnlyMs: stringified.value.stringifyMs,
    stringifyPeak: stringified.peak,
    stringifyLive,
  };
}

const MB = 1024 * 1024;
const fmt = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
export const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The file line, both rows and both ratio lines of one harness, each labelled with it. */
export function formatComparison(harness: string, c: Comparison): string[] {
  const timeRatio = c.exportMs / c.stringifyMs;
  const heapRatio = c.exportPeak / c.fileBytes;
  const liveRatio = c.exportLive / c.fileBytes;
  const row = (name: string, time: string, heap: number, live: number) =>
    `${name.padEnd(16)}${time.padEnd(44)}heap peak +${fmt(heap).padEnd(11)}live peak +${fmt(live)}`;
  return [
    `${harness}:`,
    `File: ${fmt(c.fileBytes)}, ${c.entryCount.toLocaleString('en')} entries in ${c.chunks} chunks, head hash ${c.headHash}`,
    row('Export', secs(c.exportMs), c.exportPeak, c.exportLive),
    row('JSON.stringify', `${secs(c.stringifyMs)} (toArray ${secs(c.readMs)} + stringify ${secs(c.stringifyOnlyMs)})`, c.stringifyPeak, c.stringifyLive),
    // The targets of issue 15: at most 2× the time of a bare toArray + JSON.stringify, a heap peak at most 2× the file.
    `Time (${harness}):   export / (toArray + JSON.stringify) = ${timeRatio.toFixed(2)}×  (target ≤ 2×: ${timeRatio <= 2 ? 'met' : 'NOT met'}); ` +
      `export / JSON.stringify alone = ${(c.exportMs / c.stringifyOnlyMs).toFixed(1)}×`,
    `Memory (${harness}): heap peak incl. garbage / file size = ${heapRatio.toFixed(2)}×  (target ≤ 2×: ${heapRatio <= 2 ? 'met' : 'NOT met'}); ` +
      `live peak / file size = ${liveRatio.toFixed(3)}×`,
    `        JSON.stringify: live peak / file size = ${(c.stringifyLive / c.fileBytes).toFixed(2)}×, heap peak / file size = ${(c.stringifyPeak / c.fileBytes).toFixed(2)}×`,
    // V8 starts a full GC once the old generation has grown by a share of what it held after the last one: garbage
    // that outlives a scavenge piles up in proportion to this figure, whatever the export allocates.
    `        heap in use before the export, after a full GC: ${fmt(c.exportBaseline)}`,
  ];
}
