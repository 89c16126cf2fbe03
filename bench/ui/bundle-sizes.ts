import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface BundleSizes {
  /** gzip bytes of index.html's entry and its static imports (plus workbox-window, which every load imports). */
  pageStart: number;
  /** gzip bytes of every chunk the page can load, lazy ones included. */
  pageAll: number;
  /** gzip bytes of the agent worker and its imports. */
  worker: number;
  /** scripts/bundle-size.mjs's own listing, chunk by chunk. */
  report: string;
}

/**
 * The sizes as scripts/bundle-size.mjs counts them (one definition of "page JS"
 * for the project): it follows index.html's module script through static
 * imports, and lists lazy chunks and the worker apart. It exits 1 when the page
 * is over budget; the bench reports that as MISS rather than failing.
 */
export async function bundleSizes(outDir: string): Promise<BundleSizes> {
  const run = promisify(execFile);
  let stdout: string;
  try {
    ({ stdout } = await run('node', ['scripts/bundle-size.mjs', outDir]));
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (failed.code !== 1 || !failed.stdout) throw new Error(`scripts/bundle-size.mjs failed: ${failed.stderr ?? String(error)}`, { cause: error });
    stdout = failed.stdout;
  }
  const kb = (label: string) => {
    const match = new RegExp(`^${label}:\\s+([\\d.]+) kB gzip`, 'm').exec(stdout);
    if (!match?.[1]) throw new Error(`scripts/bundle-size.mjs printed no "${label}" line:\n${stdout}`);
    return Math.round(Number(match[1]) * 1000);
  };
  return {
    pageStart: kb('page JS at start'),
    pageAll: kb('page JS, all chunks'),
    worker: kb('worker JS'),
    report: stdout.slice(0, stdout.indexOf('\npage JS at start')).trim(),
  };
}
