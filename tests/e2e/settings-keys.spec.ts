import { startFakeLlm } from '../fake-llm/index.ts';
import { send, setUpEndpoint } from './app.ts';
import { API_KEY, expect, test } from './fixtures.ts';

test('a key belongs to its origin: switching endpoint shows an empty field, Test connection there does not carry the first key, and switching back shows it', async ({
  context,
  page,
  llm,
}) => {
  const other = await startFakeLlm();
  const carriers: string[] = [];
  context.on('request', (request) => {
    const headers = Object.values(request.headers()).join('\n');
    if (headers.includes(API_KEY) && new URL(request.url()).origin !== llm.origin) carriers.push(request.url());
  });
  try {
    await page.goto('/');
    const key = page.getByLabel('API key');
    const baseUrl = page.getByLabel('Base URL');
    await page.getByLabel('Provider').selectOption({ label: 'Custom (OpenAI-compatible)' });
    await baseUrl.fill(llm.baseUrl);
    await key.fill(API_KEY);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByText(/Connected\./)).toBeVisible();

    // Provider B: the field is empty.
    await page.getByLabel('Provider').selectOption({ label: 'OpenRouter' });
    await expect(baseUrl).toHaveValue('https://openrouter.ai/api/v1');
    await expect(key).toHaveValue('');
    // A custom host B, tested: the request carries no key of A's.
    await page.getByLabel('Provider').selectOption({ label: 'Custom (OpenAI-compatible)' });
    await baseUrl.fill(other.baseUrl);
    await expect(key).toHaveValue('');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByText(/Connected\./)).toBeVisible();
    const toOther = other.requests.filter((r) => r.method === 'GET' && r.path === '/v1/models');
    expect(toOther).toHaveLength(1);
    expect(toOther[0]!.headers.authorization).toBe('Bearer no-key');
    expect(JSON.stringify(other.requests)).not.toContain(API_KEY);
    expect(carriers).toEqual([]);

    // Back to A: its key again.
    await baseUrl.fill(llm.baseUrl);
    await expect(key).toHaveValue(API_KEY);
  } finally {
    await other.close();
  }
});

test('a saved key comes back only for its own origin, and every model request asks for at most 4096 tokens', async ({ page, llm }) => {
  llm.enqueue({ content: 'Hello.' });
  await setUpEndpoint(page, llm);
  await send(page, 'hi');
  await expect(page.getByText('Hello.')).toBeVisible();
  const [chat] = llm.chatRequests();
  expect(chat?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect(chat?.body).toMatchObject({ max_tokens: 4096 });

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByLabel('API key')).toHaveValue(API_KEY);
  await page.getByLabel('Base URL').fill(llm.baseUrl.replace('127.0.0.1', 'localhost'));
  await expect(page.getByLabel('API key')).toHaveValue('');
  await page.getByLabel('Base URL').fill(llm.baseUrl);
  await expect(page.getByLabel('API key')).toHaveValue(API_KEY);
});
