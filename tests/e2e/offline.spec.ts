import type { Page } from '@playwright/test';
import { card, send, serviceWorkerInControl, setUpEndpoint, waitCall } from './app.ts';
import { expect, test } from './fixtures.ts';

/** Where this document's navigation was answered from: `cache` for a static route's cache, empty when no service worker took part. */
function navigationSource(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceResourceTiming & { workerFinalSourceType?: string }).workerFinalSourceType);
}

// What these tests are about is the service worker: each installs it (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

test('offline: the app and a pending card render from the precache; a decision made offline resumes with one continuation when back online', async ({ context, page, llm }) => {
  llm.enqueue(waitCall({ title: 'Send the report', description: 'Email the Q3 report to **4** board members.' }), { content: 'Report sent.' });
  await setUpEndpoint(page, llm);
  await serviceWorkerInControl(page);
  await send(page, 'send the report');
  await expect(card(page, 'Send the report')).toBeVisible();
  // A returning visit answered from the precache first: right after the claim a reload is at times still answered
  // without the service worker (Chromium, when its browser has run an earlier test), and offline that is no page at all.
  await expect
    .poll(async () => {
      await page.reload();
      return navigationSource(page);
    })
    .toBe('cache');

  await context.setOffline(true);
  await page.reload();
  const approval = card(page, 'Send the report');
  await expect(approval).toBeVisible();
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await page.goBack();

  // Chromium 150 (Debian's package) leaves `navigator.onLine` true in a document and worker loaded while
  // the emulation is offline, though their requests fail; a change of the emulation reaches them. A person
  // offline gets false from the start, as the app expects: put the page where a real offline reload leaves it.
  if (await page.evaluate(() => navigator.onLine)) {
    await context.setOffline(false);
    await context.setOffline(true);
  }
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);

  await card(page, 'Send the report').getByRole('button', { name: 'Approve' }).click();
  await expect(card(page, 'Send the report').getByText('Approved', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Waiting for network|Retrying/ })).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(1);

  await context.setOffline(false);
  await expect(page.getByText('Report sent.')).toBeVisible({ timeout: 20_000 });
  expect(llm.chatRequests()).toHaveLength(2);
  expect(llm.chatRequests()[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Approval approval: approve' });
});

test.describe('with service workers blocked', () => {
  test.use({ serviceWorkers: 'block' });

  test('the same offline reload fails to load: proof the offline test is real', async ({ context, page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Pausepoint', level: 1 })).toBeVisible();
    await context.setOffline(true);
    await expect(page.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  });
});

test('while the app is visible, a service worker Chromium stopped for idleness is started again before the next press needs it', async ({ context, page, llm }) => {
  llm.enqueue({ content: 'First answer.' }, { content: 'Second answer.' });
  await setUpEndpoint(page, llm);
  await serviceWorkerInControl(page);
  await send(page, 'hello');
  await expect(page.getByText('First answer.')).toBeVisible();
  const devtools = await context.newCDPSession(page);
  // Every version the domain lists, by id: besides this page's, it can list versions left from the browser's earlier
  // tests or an install Chromium retried. Stopped means all of them; only this page's can be started again by its ping.
  const running = new Map<string, string>();
  devtools.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const version of versions) running.set(version.versionId, version.runningStatus);
  });
  const anyRunning = () => [...running.values()].some((status) => status === 'running');
  await devtools.send('ServiceWorker.enable');
  await expect.poll(() => running.size).toBeGreaterThan(0);
  // As Chromium does after 30 s without events: the running version alone (stopAllWorkers, on Chromium 150, can
  // also leave the page without a controller, which no idle stop does).
  for (const [versionId, status] of running) if (status === 'running') await devtools.send('ServiceWorker.stopWorker', { versionId });
  await expect.poll(anyRunning).toBe(false);

  // Nobody touches the page: its keep-warm ping (every 10 s while visible) starts the worker again. Two intervals:
  // on a loaded machine the first tick can come late, and starting the worker takes its own time.
  await expect.poll(anyRunning, { timeout: 25_000 }).toBe(true);
  await send(page, 'again');
  await expect(page.getByText('Second answer.')).toBeVisible();
  await devtools.detach();
});

test('a returning visit is answered by the precache’s static routes: the page and its scripts come from the cache, not through the stopped service worker', async ({ context, page, llm }) => {
  await setUpEndpoint(page, llm);
  await serviceWorkerInControl(page);
  // A returning visit: the first page was claimed, and a reload right after the claim is at times
  // still answered without the service worker (Chromium, seen when a browser has run an earlier test).
  await expect
    .poll(async () => {
      await page.reload();
      return navigationSource(page);
    })
    .toBe('cache');
  // Stopped, as Chromium stops it after 30 s without events: the routes answer without starting it.
  const devtools = await context.newCDPSession(page);
  await devtools.send('ServiceWorker.enable');
  await devtools.send('ServiceWorker.stopAllWorkers');
  await devtools.detach();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  const sources = await page.evaluate(async () => {
    type Routed = PerformanceResourceTiming & { workerFinalSourceType?: string };
    const navigation = performance.getEntriesByType('navigation')[0] as Routed;
    // The agent worker's own imports (the chunks it shares with what it loads on demand) are the worker's requests, not
    // the page's: Chromium lists them in the page's timeline, but a dedicated worker's module imports are not answered
    // by the page's static routes. Left out, read from the worker script's own import list.
    const all = performance.getEntriesByType('resource') as Routed[];
    const worker = all.find((entry) => /\/assets\/agent\.worker-[^/]+\.js$/.test(entry.name));
    const workerImports = worker ? [...(await (await fetch(worker.name)).text()).matchAll(/from"\.\/([^"]+\.js)"/g)].map((m) => m[1]!) : [];
    const scripts = all.filter((entry) => /\/assets\/.+\.js$/.test(entry.name) && !workerImports.some((name) => entry.name.endsWith(`/assets/${name}`)));
    return {
      navigation: navigation.workerFinalSourceType,
      scripts: [...new Set(scripts.map((entry) => entry.workerFinalSourceType))],
      scriptCount: scripts.length,
    };
  });
  expect(sources.navigation).toBe('cache');
  expect(sources.scriptCount).toBeGreaterThan(0);
  expect(sources.scripts).toEqual(['cache']);
});

test('a returning visit runs the app’s start-up script from V8’s code cache, not compiled from source again', async ({ browser, page, llm }) => {
  await setUpEndpoint(page, llm);
  await serviceWorkerInControl(page);
  // Chromium writes a module script's code cache on a later visit than the first ("hot" once seen twice).
  for (let visit = 0; visit < 3; visit++) {
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  }
  const entry = await page.evaluate(() => (document.querySelector('script[type="module"]') as HTMLScriptElement).src);
  type CompileData = { url?: string; consumedCacheSize?: number; cacheRejected?: boolean };
  const tracedVisit = async (): Promise<CompileData | undefined> => {
    await browser.startTracing(page, { categories: ['devtools.timeline'] });
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: { name: string; args?: { data?: CompileData } }[] };
    return trace.traceEvents.find((e) => e.name === 'v8.compileModule' && e.args?.data?.url === entry)?.args?.data;
  };
  // Chromium writes the cache off the main thread after a visit; on a loaded machine that can land a visit late.
  // A few more visits absorb that; a bundle the cache never serves (npm run bench:code-cache) still fails.
  let compile: CompileData | undefined;
  for (let visit = 0; visit < 4 && !(compile?.consumedCacheSize ?? 0); visit++) {
    compile = await tracedVisit();
    expect(compile?.cacheRejected ?? false).toBe(false);
  }
  expect(compile, `no compile of ${entry} in the trace`).toBeDefined();
  // Without it the bundle is parsed and compiled from source on every visit.
  expect(compile!.consumedCacheSize ?? 0).toBeGreaterThan(0);
});
