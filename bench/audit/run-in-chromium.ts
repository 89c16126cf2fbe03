import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../ui/browser.ts';
import { bundlePage, serveBundle } from '../ui/bundled-page.ts';
import { formatSummary, sourceResolver, startProfile, summarize } from '../ui/cpu-profile.ts';
import { secs, type Comparison } from './compare-export.ts';

/** A loopback origin that nothing listens on (serveBundle). */
const ORIGIN = 'http://127.0.0.1:4190';
const ENTRY = fileURLToPath(new URL('./chromium/audit-page.ts', import.meta.url));
const SCRIPT = 'assets/audit-page.js';
const PAGE = `<!doctype html><meta charset="utf-8"><title>bench:audit in Chromium</title><script type="module" src="/${SCRIPT}"></script>`;
/** V8's gc() in the page, and performance.memory exact rather than rounded and cached. */
const HEAP_FLAGS = ['--js-flags=--expose-gc', '--enable-precise-memory-info'];

/**
 * bench:audit's comparison (compare-export.ts) in a page of Chromium, on its
 * own IndexedDB: an off-the-record context, so the database lives in the
 * browser's memory, not on disk. The page seeds the same rows as Node does
 * and measures both sides itself. BENCH_AUDIT_PROFILE=1 then profiles one
 * more export (V8's sampler through CDP) and logs where its time went.
 */
export async function compareInChromium(pausePoints: number, pageSize: number | undefined, log: (line: string) => void): Promise<{ version: string; comparison: Comparison }> {
  const outDir = await mkdtemp(join(tmpdir(), 'pausepoint-bench-audit-'));
  const browser = await launchChromium(HEAP_FLAGS);
  try {
    // The export, Dexie and zod with it; the map serves BENCH_AUDIT_PROFILE's profile.
    await bundlePage(ENTRY, outDir, SCRIPT, { sourcemap: true });
    const context = await browser.newContext();
    await serveBundle(context, ORIGIN, outDir, PAGE);
    const page = await context.newPage();
    page.on('console', (message) => log(message.text()));
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => window.benchAudit !== undefined, undefined, { timeout: 30_000 });
    const seeded = await page.evaluate((count) => window.benchAudit!.seed(count), pausePoints);
    log(
      `Chromium ${browser.version()}: seeded ${seeded.pausePoints.toLocaleString('en')} pause points, ${seeded.messages.toLocaleString('en')} messages, ` +
        `${seeded.ledger.toLocaleString('en')} ledger entries into its IndexedDB (in memory, off the record) in ${secs(seeded.ms)}; measuring…`,
    );
    const comparison = await page.evaluate((size) => window.benchAudit!.compare(size), pageSize);
    if (process.env.BENCH_AUDIT_PROFILE === '1') {
      const profiling = await startProfile(page);
      const once = await page.evaluate((size) => window.benchAudit!.exportOnce(size), pageSize);
      const profile = await profiling.stop();
      log(formatSummary(`One more export in Chromium under the CPU profiler (${secs(once.ms)}, head hash ${once.headHash}):`, summarize(profile, { resolve: sourceResolver(outDir), top: 25 })));
    }
    return { version: browser.version(), comparison };
  } finally {
    await browser.close();
    await rm(outDir, { recursive: true, force: true });
  }
}
