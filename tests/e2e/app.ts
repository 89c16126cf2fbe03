import type { Locator, Page } from '@playwright/test';
import { DEFAULT_MAX_TOKENS } from '../../src/storage/settings-constants.ts';
import type { ChatRequestBody, FakeLlm } from '../fake-llm/index.ts';
import { API_KEY, expect, test } from './fixtures.ts';

/**
 * The model the test's fake server answers as, set up the quick way: the settings the setup screen's Save
 * writes (provider, Base URL, API key, model), handed to the app as it opens and saved by it before its first
 * screen is read (src/main.ts: seedSettings, in the e2e build only). For every test that is not about the
 * setup screen: it spares each test the form's five actions and the setup screen's chunk (10.2 s against
 * 13.4 s a set-up, five of each interleaved at load 30), and a page load of its own (0.37 s of CPU, when the
 * seed went through the probe page). seeded-setup.spec.ts holds it to writing exactly what Save writes; the
 * screen itself is driven by setUpEndpointThroughUi (expiry.spec.ts, safety.spec.ts) and providers.spec.ts.
 */
export async function setUpEndpoint(page: Page, llm: FakeLlm) {
  await test.step('set up the model (seeded)', async () => {
    // Exactly the fields the setup screen saves (its Max tokens field starts at the default; no custom headers).
    const settings = { provider: 'custom', baseUrl: llm.baseUrl, apiKey: API_KEY, model: 'fake-model', maxTokens: DEFAULT_MAX_TOKENS, headers: [] };
    // For this navigation only: a reload later must not save them over what the test changed since.
    const seed = await page.addInitScript((input) => Object.assign(window, { pausepointE2eSettings: input }), settings);
    await page.goto('/');
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    await seed.dispose();
  });
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
