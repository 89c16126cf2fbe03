import type { ChatRequestBody } from '../fake-llm/index.ts';
import { card, send, setUpEndpoint, waitCall } from './app.ts';
import { expect, test } from './fixtures.ts';

const lastUser = (body: ChatRequestBody) => body.messages.filter((m) => m.role === 'user').at(-1)?.content;

test('a card pending across a reload: deciding after the reload resumes the loop', async ({ page, llm }) => {
  llm.enqueue(waitCall({ title: 'Wire the payment', description: '$2,400 to ACME Ltd. Irreversible.' }), { content: 'Payment wired.' });
  await setUpEndpoint(page, llm);
  await send(page, 'pay ACME');
  await expect(card(page, 'Wire the payment')).toBeVisible();

  await page.reload();
  const approval = card(page, 'Wire the payment');
  await expect(approval).toBeVisible();
  await approval.getByRole('button', { name: 'Approve' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastUser(second!.body)).toBe('Approval approval: approve');
  await expect(page.getByText('Payment wired.')).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(2);
});

test('a card pending when the tab closes is decided in a new tab, and the loop resumes there', async ({ context, page, llm }) => {
  llm.enqueue(waitCall({ title: 'Delete the archive', description: 'Removes **312** files for good.' }), { content: 'Deleted.' });
  await setUpEndpoint(page, llm);
  await send(page, 'clean the archive');
  await expect(card(page, 'Delete the archive')).toBeVisible();
  const url = page.url();
  await page.close();

  const next = await context.newPage();
  await next.goto(url);
  const approval = card(next, 'Delete the archive');
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(next.getByText('Deleted.')).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(2);
});

test('a reload in the middle of a stream keeps the partial text and the conversation recovers', async ({ page, llm }) => {
  const long = 'This answer streams slowly so that the page can be reloaded halfway through it. '.repeat(6);
  llm.enqueue({ content: long, chunkSize: 6, chunkDelayMs: 60 }, { content: 'Recovered answer after the reload.' });
  await setUpEndpoint(page, llm);
  await send(page, 'tell me something long');
  await expect(page.getByText('This answer streams slowly', { exact: false }).first()).toBeVisible();

  await page.reload();
  // The orphaned stream is kept, marked interrupted, and the turn is retried by this tab.
  await expect(page.getByText('Recovered answer after the reload.')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('This answer streams slowly', { exact: false }).first()).toBeVisible();
  await expect(page.getByText(/interrupted/i).first()).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(2);
  // The retried request does not contain the broken half-answer.
  expect(llm.chatRequests()[1]!.body.messages.some((m: { role: string }) => m.role === 'assistant')).toBe(false);
});
