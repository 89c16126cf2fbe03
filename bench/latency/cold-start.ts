import type { BrowserContext } from '@playwright/test';
import { installLatencyProbes, type LatencyMarks } from './page-probes.ts';

export interface ColdStart {
  /** Navigation start → `new Worker()` returned in the page (main.ts makes it before mounting the app). */
  createdMs: number;
  /** Navigation start → the worker's `ready` event in the page. */
  readyMs: number;
  /** Navigation start → the answer to a decision intent posted at the worker's creation. */
  answeredMs: number;
}

/**
 * Opens the app in a new tab of a profile that has used it before (its service
 * worker in control, its caches warm: a returning user's start), with the
 * probe intent posted to the worker the moment the page creates it. The
 * browser queues that message until the worker listens, so its answer marks
 * the first moment the worker can act on an intent: its script loaded and
 * run, the database open, the device id read.
 */
export async function coldStart(context: BrowserContext, path: string): Promise<ColdStart> {
  const page = await context.newPage();
  try {
    await page.addInitScript(installLatencyProbes, { probeWorker: true });
    await page.goto(path, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(
      () => (window.__latency?.worker.answeredAt !== undefined && window.__latency.worker.readyAt !== undefined ? window.__latency : undefined),
      undefined,
      { polling: 20, timeout: 15_000 },
    );
    const marks = (await handle.jsonValue()) as LatencyMarks;
    const { createdAt, readyAt, answeredAt, answer } = marks.worker;
    if ((answer as { outcome?: unknown } | undefined)?.outcome !== 'not_found') {
      throw new Error(`The worker answered the probe with ${JSON.stringify(answer)}, not not_found`);
    }
    return { createdMs: createdAt! - marks.timeOrigin, readyMs: readyAt! - marks.timeOrigin, answeredMs: answeredAt! - marks.timeOrigin };
  } finally {
    await page.close();
  }
}
