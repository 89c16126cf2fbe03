import type { Page } from '@playwright/test';
import { card, send, setUpEndpoint, waitCall } from './app.ts';
import { expect, test } from './fixtures.ts';

/** Waits until the service worker is activated and controls this page (`ready` alone can resolve too early). */
async function serviceWorkerInControl(page: Page) {
  await page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return registration?.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
  }, undefined, { timeout: 20_000 });
}

test('offline: the app and a pending card render from the precache; a decision made offline resumes with one continuation when back online', async ({ context, page, llm }) => {
  llm.enqueue(waitCall({ title: 'Send the report', description: 'Email the Q3 report to **4** board members.' }), { content: 'Report sent.' });
  await setUpEndpoint(page, llm);
  await serviceWorkerInControl(page);
  await send(page, 'send the report');
  await expect(card(page, 'Send the report')).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  const approval = card(page, 'Send the report');
  await expect(approval).toBeVisible();
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await page.goBack();

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
  let status = '';
  devtools.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const version of versions) status = version.runningStatus;
  });
  await devtools.send('ServiceWorker.enable');
  // As Chromium does after 30 s without events.
  await devtools.send('ServiceWorker.stopAllWorkers');
  await expect.poll(() => status).toBe('stopped');

  // Nobody touches the page: its keep-warm ping (every 10 s while visible) starts the worker again.
  await expect.poll(() => status, { timeout: 15_000 }).toBe('running');
  await send(page, 'again');
  await expect(page.getByText('Second answer.')).toBeVisible();
  await devtools.detach();
});

test('a returning visit is answered by the precache’s static routes: the page and its scripts come from the cache, not through the stopped service worker', async ({ context, page, llm }) => {
  await setUpEndpoint(page, llm);
  await serviceWorkerInControl(page);
  // Stopped, as Chromium stops it after 30 s without events: the routes answer without starting it.
  const devtools = await context.newCDPSession(page);
  await devtools.send('ServiceWorker.enable');
  await devtools.send('ServiceWorker.stopAllWorkers');
  await devtools.detach();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  const sources = await page.evaluate(() => {
    type Routed = PerformanceResourceTiming & { workerFinalSourceType?: string };
    const navigation = performance.getEntriesByType('navigation')[0] as Routed;
    const scripts = (performance.getEntriesByType('resource') as Routed[]).filter((entry) => /\/assets\/.+\.js$/.test(entry.name));
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
