import type { BrowserContext, Page } from '@playwright/test';
import { join } from 'node:path';
import { startFakeLlm } from '../../tests/fake-llm/index.ts';
import { setUpEndpoint } from '../latency/set-up-endpoint.ts';
import { launchChromiumOnDisk } from '../ui/browser.ts';
import { buildApp, startPreview } from '../ui/preview-server.ts';
import { workerHeapFromStart } from './worker-heap-from-start.ts';

/**
 * A fresh production build served and opened in Chromium, on a profile on
 * disk under `work` (as a person's is: an off-the-record context keeps
 * IndexedDB in memory), with an endpoint set up and Settings open: where
 * bench:import and bench:restore choose their file.
 */
export async function settingsInChromium(work: string, apiKey: string): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const outDir = join(work, 'dist');
  await buildApp(outDir);
  const server = await startPreview(outDir);
  const llm = await startFakeLlm({ requireKey: apiKey });
  const context = await launchChromiumOnDisk(join(work, 'profile'), server.origin);
  const close = async () => {
    await context.close();
    await llm.close();
    await server.stop();
  };
  try {
    await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(server.origin);
    await setUpEndpoint(page, llm, apiKey);
    await page.getByRole('link', { name: 'Settings' }).click();
    return { context, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Chooses `file` under the control labelled `control` in Settings' `region`
 * and waits for the task's summary: the seconds from choosing it, the summary,
 * and the import worker's heap at its start (before its first line ran) and at
 * its peak (worker-heap-from-start.ts).
 */
export async function runFileTask(context: BrowserContext, page: Page, region: string, control: string, file: string) {
  const panel = page.getByRole('region', { name: region });
  const heap = await workerHeapFromStart(context, page, 'import.worker');
  const started = performance.now();
  await panel.getByLabel(control).setInputFiles(file);
  const atStart = await heap.started;
  const summary = panel.locator('p[role="status"], p[role="alert"]');
  await summary.waitFor({ timeout: 15 * 60_000 });
  const seconds = (performance.now() - started) / 1000;
  const peak = await heap.stop();
  return { seconds, summary: await summary.textContent(), atStart, peak };
}
