import { startFakeLlm } from '../fake-llm/index.ts';
import { send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';

const NAME = 'X-Gateway-Token';
const VALUE = 'gw-e2e-header-secret';

test('a custom header set in Settings goes with every request to its origin, and not to another Base URL’s', async ({ page, llm }) => {
  const other = await startFakeLlm();
  try {
    llm.enqueue({ content: 'Through the gateway.' });
    other.enqueue({ content: 'Somewhere else.' });
    await setUpEndpoint(page, llm);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header name').fill(NAME);
    await page.getByLabel('Header value').fill(VALUE);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByText(/Connected\./)).toBeVisible();
    await page.getByRole('button', { name: 'Save', exact: true }).first().click(); // the Model section's; Push notifications has its own
    // Saved before the next request: a Send right after the press could still go out on the settings before.
    await expect(page.getByText('Saved. New requests use these settings.')).toBeVisible();
    await page.getByRole('button', { name: 'New chat' }).click();
    await send(page, 'hi');
    await expect(page.getByText('Through the gateway.')).toBeVisible();
    const [chat] = llm.chatRequests();
    expect(chat?.headers['x-gateway-token']).toBe(VALUE);
    const list = llm.requests.find((r) => r.method === 'GET' && r.path === '/v1/models');
    expect(list?.headers['x-gateway-token']).toBe(VALUE);

    // Another origin: its own (no) headers; the first origin's stay saved for it.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Base URL').fill(other.baseUrl);
    await expect(page.getByLabel('Header name')).toHaveCount(0);
    await page.getByRole('button', { name: 'Save', exact: true }).first().click(); // the Model section's; Push notifications has its own
    // Saved before the next request: a Send right after the press could still go out on the settings before.
    await expect(page.getByText('Saved. New requests use these settings.')).toBeVisible();
    await page.getByRole('button', { name: 'New chat' }).click();
    await send(page, 'hello');
    await expect(page.getByText('Somewhere else.')).toBeVisible();
    const [elsewhere] = other.chatRequests();
    expect(elsewhere?.headers).not.toHaveProperty('x-gateway-token');
    expect(JSON.stringify(other.requests)).not.toContain(VALUE);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Base URL').fill(llm.baseUrl);
    await expect(page.getByLabel('Header name')).toHaveValue(NAME);
    await expect(page.getByLabel('Header value')).toHaveValue(VALUE);
  } finally {
    await other.close();
  }
});
