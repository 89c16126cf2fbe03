import type { Page } from '@playwright/test';
import { send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';

const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });
const status = (page: Page) => page.getByRole('status').filter({ hasText: /Ready|Running|Retrying|Error|Stopped|Paused|Waiting/ });

test('401: a clear message naming the key; nothing the user wrote is lost; Retry works', async ({ page, llm }) => {
  llm.enqueue({ fault: 'status', status: 401, message: 'Incorrect API key provided' });
  await setUpEndpoint(page, llm);
  await send(page, 'my important question');
  await expect(status(page)).toContainText(/API key/i);
  await expect(messages(page).getByText('my important question')).toBeVisible();

  llm.enqueue({ content: 'Here is the answer.' });
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('Here is the answer.')).toBeVisible();
  expect(llm.chatRequests().at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: 'my important question' });
});

test('429 with retry-after and a 500: retried visibly, then answered', async ({ page, llm }) => {
  llm.enqueue({ fault: 'status', status: 429, retryAfter: 1, message: 'Rate limit reached' }, { fault: 'status', status: 503 }, { content: 'Answered after retries.' });
  await setUpEndpoint(page, llm);
  await send(page, 'hello');
  await expect(status(page)).toContainText('Retrying');
  await expect(page.getByText('Answered after retries.')).toBeVisible({ timeout: 15_000 });
  expect(llm.chatRequests()).toHaveLength(3);
  const gaps = llm.chatRequests().map((r) => r.at);
  expect(gaps[1]! - gaps[0]!).toBeGreaterThanOrEqual(900); // retry-after: 1 second was honoured
});

test('a dropped stream: the partial text is kept and the request retried', async ({ page, llm }) => {
  llm.enqueue({ fault: 'drop', content: 'The first half of an answer that never', afterChunks: 3 }, { content: 'A complete answer.' });
  await setUpEndpoint(page, llm);
  await send(page, 'hello');
  await expect(page.getByText('A complete answer.')).toBeVisible({ timeout: 15_000 });
  expect(llm.chatRequests()).toHaveLength(2);
  expect(llm.chatRequests()[1]!.body.messages.some((m: { role: string }) => m.role === 'assistant')).toBe(false);
});

test('a response that never comes can be stopped, keeping the conversation usable', async ({ page, llm }) => {
  llm.enqueue({ fault: 'hang' });
  await setUpEndpoint(page, llm);
  await send(page, 'are you there?');
  await expect(status(page)).toContainText('Running');
  // Stopped once the request has reached the server, as the title says: stopped before, the request never takes the
  // queued hang, and the next send's request would (seen 2 runs in 16 with 3 workers).
  await llm.waitForChatRequests(1);
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toContainText('Ready');
  await expect(page.getByText('Stopped.')).toBeVisible();

  llm.enqueue({ content: 'Yes, here now.' });
  await send(page, 'try again please');
  await expect(page.getByText('Yes, here now.')).toBeVisible();
  await expect(messages(page).getByText('are you there?')).toBeVisible();
});

test('a slow stream shows text as it arrives', async ({ page, llm }) => {
  llm.enqueue({ content: 'Word by word, slowly, the answer arrives and the page shows it growing.', chunkSize: 5, chunkDelayMs: 120 });
  await setUpEndpoint(page, llm);
  await send(page, 'stream please');
  await expect(page.getByText('Word by word', { exact: false })).toBeVisible();
  await expect(status(page)).toContainText('Running');
  await expect(page.getByText('the page shows it growing.', { exact: false })).toBeVisible();
  await expect(status(page)).toContainText('Ready');
});
