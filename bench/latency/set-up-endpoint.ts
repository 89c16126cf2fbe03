import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { FakeLlm } from '../../tests/fake-llm/index.ts';
import { newProfile, waitForServiceWorker } from '../ui/browser.ts';
import { installLatencyProbes } from './page-probes.ts';

/** First run, as tests/e2e/app.ts does it: the setup screen pointed at the fake model server, through its labels. */
export async function setUpEndpoint(page: Page, llm: FakeLlm, apiKey: string, model = 'fake-model'): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Provider').selectOption({ label: 'Custom (OpenAI-compatible)' });
  await page.getByLabel('Base URL').fill(llm.baseUrl);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByLabel('Model', { exact: true }).fill(model);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 15_000 });
}

/**
 * A returning person's page on `origin`, in a profile of its own: set up, the latency probes installed, and
 * loaded under the service worker's control (the first visit's page was claimed, not loaded under it).
 */
export async function returningPage(browser: Browser, origin: string, llm: FakeLlm, apiKey: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newProfile(browser, origin);
  const page = await context.newPage();
  await page.addInitScript(installLatencyProbes, { probeWorker: false });
  await setUpEndpoint(page, llm, apiKey);
  await waitForServiceWorker(page);
  await page.goto('/#/new');
  await page.reload();
  return { context, page };
}
