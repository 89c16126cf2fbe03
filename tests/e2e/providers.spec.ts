import { PROVIDER_ORDER, PROVIDER_PRESETS } from '../../src/model/provider-presets.ts';
import { send } from './app.ts';
import { API_KEY, expect, test } from './fixtures.ts';

test('each preset fills its own Base URL and default model', async ({ page }) => {
  await page.goto('/');
  for (const provider of PROVIDER_ORDER) {
    const preset = PROVIDER_PRESETS[provider];
    if (provider === 'demo' || provider === 'custom') continue;
    await page.getByLabel('Provider').selectOption({ label: preset.label });
    await expect(page.getByLabel('Base URL')).toHaveValue(preset.baseUrl);
    if (preset.model) await expect(page.getByLabel('Model', { exact: true })).toHaveValue(preset.model);
  }
});

test('the Anthropic preset sends its direct-browser-access header, checked at a server under the preset’s path', async ({ page, llm }) => {
  llm.enqueue({ content: 'Hello from Claude.' });
  await page.goto('/');
  await page.getByLabel('Provider').selectOption({ label: 'Anthropic' });
  const presetPath = new URL(PROVIDER_PRESETS.anthropic.baseUrl).pathname;
  expect(presetPath).toBe('/v1/');
  await page.getByLabel('Base URL').fill(`${llm.origin}${presetPath}`);
  await page.getByLabel('API key').fill(API_KEY);
  await page.getByLabel('Model', { exact: true }).fill('fake-model');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click(); // the Model section's; Push notifications has its own
  await send(page, 'hi');
  await expect(page.getByText('Hello from Claude.')).toBeVisible();
  const [chat] = llm.chatRequests();
  expect(chat?.path).toBe('/v1/chat/completions');
  expect(chat?.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
});
