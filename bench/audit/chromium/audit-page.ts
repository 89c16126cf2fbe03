/**
 * Bundled into a page by run-in-chromium.ts: bench:audit's comparison
 * (compare-export.ts, the same seed, export and baseline as in Node) over
 * Dexie on Chromium's real IndexedDB. The page seeds, measures and hands back
 * the figures, so no round trip to the bench falls inside a timed part.
 *
 * The heap is `performance.memory.usedJSHeapSize`, exact with
 * `--enable-precise-memory-info` (otherwise rounded and updated every 20
 * minutes); `gc()` is V8's, exposed by `--js-flags=--expose-gc`. Unlike Node's
 * figure it leaves out ArrayBuffer contents held outside the heap (each
 * entry's UTF-8 bytes for the hash): they are small and short-lived.
 */
import { PausepointDb } from '../../../src/storage/db.ts';
import { compareExport, runExport, type Comparison, type Harness } from '../compare-export.ts';
import { seedBenchDb, type SeedCounts } from '../seed-bench-db.ts';

export interface AuditBenchPage {
  seed(pausePoints: number): Promise<SeedCounts & { ms: number }>;
  compare(pageSize?: number): Promise<Comparison>;
  /** One export into a counting sink, nothing measured but its time (for a CPU profile around it). */
  exportOnce(pageSize?: number): Promise<{ ms: number; headHash: string }>;
}

declare global {
  interface Window {
    benchAudit?: AuditBenchPage;
    gc?: () => void;
  }
  interface Performance {
    /** Chromium's, non-standard. */
    memory?: { usedJSHeapSize: number };
  }
}

/** UTF-8 bytes of a string, as Node's `Buffer.byteLength` counts them (a lone surrogate is 3, as its replacement character). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // A pair: 4 bytes for its 2 code units.
      index++;
    } else bytes += 2;
  }
  return bytes;
}

function harness(): Harness {
  const { gc } = window;
  if (!gc || !performance.memory) throw new Error('bench:audit needs Chromium started with --js-flags=--expose-gc and --enable-precise-memory-info');
  // Each read of performance.memory is a new snapshot; one kept and read again would not change.
  return { gc, used: () => performance.memory!.usedJSHeapSize, byteLength: utf8Length };
}

let db: PausepointDb | undefined;

window.benchAudit = {
  async seed(pausePoints) {
    db = new PausepointDb(`bench-audit-${Date.now()}`);
    await db.open();
    const start = performance.now();
    const counts = await seedBenchDb(db, pausePoints);
    return { ...counts, ms: performance.now() - start };
  },
  async compare(pageSize) {
    if (!db) throw new Error('seed first');
    return compareExport(db, harness(), { pageSize });
  },
  async exportOnce(pageSize) {
    if (!db) throw new Error('seed first');
    const start = performance.now();
    const { result } = await runExport(db, harness(), pageSize, () => undefined);
    return { ms: performance.now() - start, headHash: result.headHash };
  },
};
