import type { Page } from '@playwright/test';
import type { FakeLlm } from '../../tests/fake-llm/index.ts';

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
