import type { Page } from '@playwright/test';
import { card, send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';

const LIMIT_CARD = 'Pass the token limit per conversation?';

async function openSettings(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  return page.getByRole('region', { name: 'Usage and limits' });
}

async function setTokenLimit(page: Page, tokens: string) {
  const panel = await openSettings(page);
  await panel.getByLabel('Token limit per conversation').fill(tokens);
  await panel.getByRole('button', { name: 'Save limits and prices' }).click();
  await expect(panel.getByRole('status')).toHaveText('Limits and prices saved.');
  await page.getByRole('button', { name: 'New chat' }).click();
}

test('a token limit pauses before the call that would pass it; the card survives a reload; Approve goes on', async ({ page, llm }) => {
  llm.enqueue({ content: 'First answer.', tokens: { prompt: 600, completion: 100 } }, { content: 'Second answer.', tokens: { prompt: 650, completion: 10 } });
  await setUpEndpoint(page, llm);
  await setTokenLimit(page, '1000');

  await send(page, 'hi');
  await expect(page.getByText('First answer.')).toBeVisible();
  await expect(page.getByText('600 tokens in · 100 out', { exact: true })).toBeVisible();
  await expect(page.getByText('This conversation: 600 tokens in · 100 out')).toBeVisible();

  // 700 used + 600 estimated (the previous prompt) would pass 1,000: it asks first.
  await send(page, 'more');
  const limit = card(page, LIMIT_CARD);
  await expect(limit).toBeVisible();
  await expect(limit.getByText('700 tokens', { exact: true })).toBeVisible();
  await expect(limit.getByText('1,000 tokens', { exact: true })).toBeVisible();
  await expect(limit.getByText('600 tokens', { exact: true })).toBeVisible();
  await expect(limit.getByText('300 tokens', { exact: true })).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(1);

  await page.reload();
  await expect(card(page, LIMIT_CARD)).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(1);

  await card(page, LIMIT_CARD).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Second answer.')).toBeVisible();
  await expect(page.getByText('You allowed the next model call past the token limit per conversation: it may pass it by about 300 tokens.')).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(2);
  // The model never reads the decision: it is the user's, about their own money.
  expect(JSON.stringify(llm.chatRequests()[1]!.body.messages)).not.toContain('token limit');
  await expect(page.getByText('This conversation: 1,250 tokens in · 110 out')).toBeVisible();
});

test('Decline stops the run before the call, and the conversation says why', async ({ page, llm }) => {
  llm.enqueue({ content: 'First answer.', tokens: { prompt: 600, completion: 100 } });
  await setUpEndpoint(page, llm);
  await setTokenLimit(page, '1000');
  await send(page, 'hi');
  await expect(page.getByText('First answer.')).toBeVisible();
  // Its use counted, as in the test above: the check adds it to the next call's estimate.
  await expect(page.getByText('This conversation: 600 tokens in · 100 out')).toBeVisible();
  await send(page, 'more');

  const limit = card(page, LIMIT_CARD);
  await expect(limit).toBeVisible();
  await limit.getByLabel('Reason').fill('enough for today');
  await limit.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByText('Stopped: you declined to pass the token limit per conversation, so the model was not called. (enough for today)')).toBeVisible();
  await expect(limit.getByText('Declined', { exact: true })).toBeVisible();
  await page.waitForTimeout(500);
  expect(llm.chatRequests()).toHaveLength(1);
});

test('the cost appears once a price is entered for the model', async ({ page, llm }) => {
  llm.enqueue({ content: 'Counted answer.', tokens: { prompt: 600, completion: 100 } });
  await setUpEndpoint(page, llm);
  await send(page, 'hi');
  await expect(page.getByText('600 tokens in · 100 out', { exact: true })).toBeVisible();
  const conversation = page.url();

  const panel = await openSettings(page);
  await expect(panel.getByTestId('usage-total')).toContainText('All conversations: 600 tokens in · 100 out.');
  await panel.getByRole('button', { name: 'Add a price' }).click();
  const row = panel.getByRole('group').last();
  await row.getByLabel('Model').fill('fake-model');
  await row.getByLabel('Input', { exact: true }).fill('1');
  await row.getByLabel('Output').fill('2');
  await panel.getByRole('button', { name: 'Save limits and prices' }).click();
  await expect(panel.getByRole('status')).toHaveText('Limits and prices saved.');
  // 600 × 1 + 100 × 2 per million tokens.
  await expect(panel.getByTestId('usage-total')).toContainText('All conversations: 600 tokens in · 100 out · cost 0.0008.');

  await page.goto(conversation);
  await expect(page.getByText('600 tokens in · 100 out · cost 0.0008', { exact: true })).toBeVisible();
  await expect(page.getByText('This conversation: 600 tokens in · 100 out · cost 0.0008')).toBeVisible();
});
