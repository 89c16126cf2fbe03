import type { Page } from '@playwright/test';
import type { ChatRequestBody, FakeLlm } from '../fake-llm/index.ts';
import { API_KEY, expect } from './fixtures.ts';

/** First run: point the app at the test's fake model server through the setup screen, as a person would. */
export async function setUpEndpoint(page: Page, llm: FakeLlm, options: { expiry?: string } = {}) {
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
