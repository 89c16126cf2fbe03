import type { Frame, Page } from '@playwright/test';
import { card, send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';
import { addClock, CLOCK_VIEW, startTarget } from './mcp-apps-server.ts';

// Each test starts a real server process (the appServer fixture; and this machine is shared): more time than the default.
test.describe.configure({ timeout: 120_000 });


/** The view's own document: the sandbox proxy's inner frame. */
async function viewFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(() => {
      found = page.frames().find((f) => f.parentFrame()?.url().includes('/sandbox-proxy.html') === true);
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

test('a tool’s view renders in a sandboxed inner frame on the second origin, cannot reach the app or fetch outside its CSP, and renders again after a reload', async ({ page, llm, appServer }) => {
  await setUpEndpoint(page, llm);
  await page.evaluate(() => localStorage.setItem('pausepoint-e2e-secret', 'the app’s own'));
  await addClock(page, appServer, { views: true });

  llm.enqueue({ toolCalls: [{ id: 'call_time', name: 'clock__get-time', arguments: {} }] }, { content: 'Here is the time.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'what time is it on the server?');
  await card(page, 'Call get-time on Clock').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Here is the time.')).toBeVisible();

  // The outer frame is the sandbox proxy on the other loopback origin; the view is its inner frame, allow-scripts only.
  const outer = page.locator(`iframe[title="${CLOCK_VIEW}"]`);
  await expect(outer).toHaveAttribute('src', new RegExp(`^http://127\\.0\\.0\\.1:\\d+/sandbox-proxy\\.html\\?host=${encodeURIComponent(new URL(page.url()).origin)}$`));
  await expect(outer).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin');
  const inner = page.frameLocator(`iframe[title="${CLOCK_VIEW}"]`).locator('iframe');
  await expect(inner).toHaveAttribute('sandbox', 'allow-scripts');
  const view = page.frameLocator(`iframe[title="${CLOCK_VIEW}"]`).frameLocator('iframe');
  await expect(view.getByRole('button', { name: 'Get Server Time' })).toBeVisible({ timeout: 20_000 });
  // The view was given the call's result: the server's time, as the call's row shows it.
  const time = view.locator('#server-time');
  await expect(time).toHaveText(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const shownTime = await time.textContent();
  await page.locator('details.tool-call').filter({ hasText: 'clock__get-time' }).locator('summary').click();
  await expect(page.locator('details.tool-call').filter({ hasText: 'clock__get-time' })).toContainText(shownTime!);

  // From inside the view's frame: an opaque origin, no storage of the app's origin, no way to the app's document.
  const frame = await viewFrame(page);
  const reach = await frame.evaluate(() => {
    const attempt = (f: () => unknown) => {
      try {
        return `read: ${String(f())}`;
      } catch (error) {
        return error instanceof Error ? error.name : String(error);
      }
    };
    return {
      origin: self.origin,
      localStorage: attempt(() => localStorage.getItem('pausepoint-e2e-secret')),
      indexedDB: attempt(() => indexedDB.open('pausepoint')),
      parentDocument: attempt(() => window.parent.document.title),
      topDocument: attempt(() => window.top!.document.title),
      cookie: attempt(() => document.cookie),
    };
  });
  expect(reach).toEqual({ origin: 'null', localStorage: 'SecurityError', indexedDB: 'SecurityError', parentDocument: 'SecurityError', topDocument: 'SecurityError', cookie: 'SecurityError' });

  // The view declared no connectDomains: a fetch to a loopback target is refused by its policy and never arrives.
  const target = await startTarget();
  try {
    const attempt = await frame.evaluate(async (url) => {
      const violations: { directive: string; blocked: string }[] = [];
      document.addEventListener('securitypolicyviolation', (event) => violations.push({ directive: event.effectiveDirective, blocked: event.blockedURI }));
      const outcome = await fetch(url).then(
        (response) => `fetched ${response.status}`,
        (error: unknown) => (error instanceof Error ? error.name : String(error)),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { outcome, violations, policy: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') };
    }, target.url);
    expect(attempt.outcome).toBe('TypeError');
    expect(attempt.violations).toEqual([{ directive: 'connect-src', blocked: target.url }]);
    expect(attempt.policy).toContain("connect-src 'none'");
    expect(target.hits()).toBe(0);
  } finally {
    await target.close();
  }

  // After a reload the view is rendered again from the stored result: the same time, not a new call's.
  await page.reload();
  await expect(view.getByRole('button', { name: 'Get Server Time' })).toBeVisible({ timeout: 20_000 });
  await expect(time).toHaveText(shownTime!);
});

test('with Show interactive views off, the call keeps its text result and no view is shown', async ({ page, llm, appServer }) => {
  await setUpEndpoint(page, llm);
  await addClock(page, appServer, { views: false });

  llm.enqueue({ toolCalls: [{ id: 'call_time', name: 'clock__get-time', arguments: {} }] }, { content: 'Here is the time.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'what time is it on the server?');
  await card(page, 'Call get-time on Clock').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Here is the time.')).toBeVisible();
  const row = page.locator('details.tool-call').filter({ hasText: 'clock__get-time' });
  await row.locator('summary').click();
  await expect(row).toContainText(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);
  await expect(page.locator(`iframe[title="${CLOCK_VIEW}"]`)).toHaveCount(0);
  await expect(page.locator('iframe')).toHaveCount(0);
});
