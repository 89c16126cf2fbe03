import { send } from './app.ts';
import { expect, test } from './fixtures.ts';

interface Violation {
  directive: string;
  blocked: string;
}
type CspWindow = Window & { __violations: Violation[]; __inlineRan?: boolean; __handlerRan?: boolean };

// The policy holds with the service worker in place, and the second test checks its own headers and policy
// (playwright.config.ts blocks the service worker elsewhere).
test.use({ serviceWorkers: 'allow' });

test('the app runs under its Content-Security-Policy, which stops an injected inline script and handler', async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as CspWindow;
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) => w.__violations.push({ directive: event.effectiveDirective, blocked: event.blockedURI }));
  });
  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', /script-src 'self'/);

  // The whole app at work: setup, the worker, streamed markdown, a card.
  await page.getByRole('button', { name: 'Save', exact: true }).first().click(); // the Model section's; Push notifications has its own
  await send(page, 'please send the newsletter');
  await expect(page.getByRole('region', { name: 'Send the April newsletter to 1,284 subscribers' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as CspWindow).__violations)).toEqual([]);

  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true;';
    document.head.append(script);
    const holder = document.createElement('div');
    holder.innerHTML = '<img src="/not-an-image.png" onerror="window.__handlerRan = true">';
    document.body.append(holder);
  });
  // Each is reported once per policy that refuses it: the meta tag's and the header's.
  const refused = () => page.evaluate(() => [...new Set((window as unknown as CspWindow).__violations.map((v) => v.directive))].sort());
  await expect.poll(refused).toEqual(['script-src-attr', 'script-src-elem']);
  const state = await page.evaluate(() => {
    const w = window as unknown as CspWindow;
    return { inline: w.__inlineRan, handler: w.__handlerRan, violations: w.__violations };
  });
  expect(state.inline).toBeUndefined();
  expect(state.handler).toBeUndefined();
  expect(state.violations.every((v) => v.blocked === 'inline')).toBe(true);
});

/**
 * A request only a policy refuses: `connect-src *` matches network schemes,
 * not `data:`, so a worker under its policy cannot fetch one, and a worker under
 * none can. (Eval cannot be the probe: Playwright's evaluation bypasses it.)
 */
const FETCH_DATA_URL = () =>
  fetch('data:text/plain,hello').then(
    (response) => response.text(),
    (error: unknown) => (error instanceof Error ? error.name : String(error)),
  );

test('point 15: the agent worker and the service worker are served with the headers and run under their own policy', async ({ page, context }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click(); // the Model section's; Push notifications has its own
  await send(page, 'please send the newsletter');
  await expect(page.getByRole('region', { name: 'Send the April newsletter to 1,284 subscribers' })).toBeVisible();

  // Polled from here: waitForFunction took an async predicate's pending promise for a truthy answer (offline.spec.ts).
  await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated'), { timeout: 30_000 }).toBe(true);
  const [serviceWorker] = context.serviceWorkers();
  const [agentWorker] = page.workers();
  expect(serviceWorker).toBeDefined();
  expect(agentWorker).toBeDefined();

  // Each script's own response carries the whole set (a host's _headers or the README's table; here vite preview).
  for (const url of [new URL('/', page.url()).href, serviceWorker!.url(), agentWorker!.url()]) {
    const headers = (await page.request.get(url)).headers();
    expect({ url, csp: headers['content-security-policy'], nosniff: headers['x-content-type-options'], frame: headers['x-frame-options'] }).toEqual({
      url,
      csp: expect.stringMatching(/script-src 'self'.*connect-src \*.*frame-ancestors 'none'/),
      nosniff: 'nosniff',
      frame: 'DENY',
    });
  }
  // And each worker is held by it, though the page's meta tag never reached it.
  expect(await agentWorker!.evaluate(FETCH_DATA_URL)).toBe('TypeError');
  expect(await serviceWorker!.evaluate(FETCH_DATA_URL)).toBe('TypeError');
});
