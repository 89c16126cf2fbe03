import type { Locator, Page } from '@playwright/test';
import { DEFAULT_MAX_TOKENS } from '../../src/storage/settings-constants.ts';
import type { ChatRequestBody, FakeLlm } from '../fake-llm/index.ts';
import { API_KEY, expect, test } from './fixtures.ts';

/**
 * The model the test's fake server answers as, set up the quick way: the rows the setup screen's Save writes
 * (provider, Base URL, API key, model), written straight into storage through the e2e build's probe page,
 * then the app opened on them. For every test that is not about the setup screen: it spares each test the
 * form's five actions and the setup screen's chunk (10.2 s against 13.4 s a set-up, five of each
 * interleaved at load 30). seeded-setup.spec.ts holds it to writing exactly what Save writes; the screen
 * itself is driven by setUpEndpointThroughUi (expiry.spec.ts, safety.spec.ts) and providers.spec.ts.
 */
export async function setUpEndpoint(page: Page, llm: FakeLlm) {
  await test.step('set up the model (seeded)', async () => {
    await page.goto('/tests/e2e/probe/worker-probe.html');
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    await page.evaluate(
      // Exactly the rows the setup screen saves for these fields (its Max tokens field starts at the default; no custom headers).
      ([baseUrl, apiKey, maxTokens]) =>
        (window as unknown as SeedWindow).probe.saveSettings({ provider: 'custom', baseUrl, apiKey, model: 'fake-model', maxTokens, headers: [] }),
      [llm.baseUrl, API_KEY, DEFAULT_MAX_TOKENS] as const,
    );
    await page.goto('/');
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  });
}

interface SeedWindow {
  probe: { saveSettings(input: unknown): Promise<unknown> };
}

/** First run: point the app at the test's fake model server through the setup screen, as a person would. */
export async function setUpEndpointThroughUi(page: Page, llm: FakeLlm, options: { expiry?: string } = {}) {
  await page.goto('/');
  await page.getByLabel('Provider').selectOption({ label: 'Custom (OpenAI-compatible)' });
  await page.getByLabel('Base URL').fill(llm.baseUrl);
  await page.getByLabel('API key').fill(API_KEY);
  await page.getByLabel('Model', { exact: true }).fill('fake-model');
  if (options.expiry) await page.getByLabel('Pending approvals expire').selectOption({ label: options.expiry });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
}

export async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** An approval card: a region named by its title. */
export function card(page: Page, title: string) {
  return page.getByRole('region', { name: title, exact: true });
}

export function statusBar(page: Page) {
  return page.getByRole('status').first();
}

export const waitCall = (args: Record<string, unknown>, id = 'call_wait') => ({
  toolCalls: [{ id, name: 'wait_for_approval', arguments: args }],
});

/** The content of the last tool message a chat request carried: what the model read of the last call. */
export const lastToolResult = (body: ChatRequestBody) =>
  body.messages.filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).at(-1) ?? '';

/** Opens Settings and waits for its MCP servers section. */
export async function openMcpSettings(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'MCP servers' })).toBeVisible();
}

/**
 * Adds a server in Settings › MCP servers as a person would (a Client ID too, if given), and waits for its status:
 * the server's item.
 */
export async function addServer(page: Page, url: string, name: string, status: string | RegExp, options: { clientId?: string } = {}) {
  await openMcpSettings(page);
  const section = page.getByRole('region', { name: 'MCP servers' });
  await section.getByLabel('Server URL').fill(url);
  await section.getByLabel('Name (optional)').fill(name);
  if (options.clientId) await section.getByLabel('Client ID', { exact: true }).fill(options.clientId);
  await section.getByRole('button', { name: 'Connect', exact: true }).click();
  const server = section.getByRole('article', { name });
  await expect(server.getByRole('status', { name: `Status of ${name}` })).toHaveText(status, { timeout: 20_000 });
  return server;
}

/**
 * Waits until the service worker is activated and controls this page (`ready` alone can resolve too early). Polled
 * from here: `waitForFunction` with an async predicate took its pending promise for a truthy answer and returned while
 * the worker was still installing.
 */
export async function serviceWorkerInControl(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          return registration?.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
        }),
      { timeout: 30_000 },
    )
    .toBe(true);
}

/**
 * Records every label a task's progress bar (TaskProgress) shows inside `region`,
 * however fast the task goes; the returned function reads them back, in order.
 */
export async function recordProgressLabels(region: Locator): Promise<() => Promise<string[]>> {
  await region.evaluate((element) => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const label = element.querySelector('label.progress')?.textContent?.trim();
      if (label && seen.at(-1) !== label) seen.push(label);
    }).observe(element, { subtree: true, childList: true, characterData: true });
  });
  return () => region.page().evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
}
