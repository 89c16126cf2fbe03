import type { ChatRequestBody } from '../fake-llm/index.ts';
import { card, send, setUpEndpoint, waitCall } from './app.ts';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations } from './page-checks.ts';

const lastUserMessage = (body: ChatRequestBody) => body.messages.filter((m) => m.role === 'user').at(-1)?.content;

test('an approval card declined with a reason: the model reads the reason', async ({ page, llm }) => {
  llm.enqueue(
    waitCall({ title: 'Send the campaign', description: 'Email **1,204** subscribers. This cannot be unsent.' }),
    { content: 'Understood, I will not send it.' },
  );
  await setUpEndpoint(page, llm);
  await send(page, 'send the spring campaign');

  const approval = card(page, 'Send the campaign');
  await expect(approval).toBeVisible();
  await expect(approval.getByText('1,204')).toBeVisible();
  // A card that appears never takes the focus (a key meant for something else must not decide it).
  await expect(approval).not.toBeFocused();
  await expectNoSeriousViolations(page, 'section[aria-labelledby]');

  await approval.getByLabel('Reason').fill('wrong list');
  await approval.getByRole('button', { name: 'Decline' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastUserMessage(second!.body)).toBe('Approval approval: decline - wrong list');
  await expect(approval.getByText('Declined', { exact: true })).toBeVisible();
  await expect(approval.getByText('wrong list')).toBeVisible();
  await expect(approval.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByText('Understood, I will not send it.')).toBeVisible();
});

test('a choice card: the chosen option reaches the model', async ({ page, llm }) => {
  llm.enqueue(
    waitCall({ title: 'Pick a delivery date', description: 'Three slots are free.', options: ['Monday', 'Tuesday', 'Friday'] }),
    { content: 'Booked for Tuesday.' },
  );
  await setUpEndpoint(page, llm);
  await send(page, 'book a delivery');
  const choice = card(page, 'Pick a delivery date');
  await expect(choice.getByRole('button', { name: 'Monday' })).toBeVisible();
  await expectNoSeriousViolations(page, 'section[aria-labelledby]');
  await choice.getByRole('button', { name: 'Tuesday' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastUserMessage(second!.body)).toBe('Approval choice: Tuesday');
  await expect(choice.getByText('Chose')).toBeVisible();
});

test('an editable payload: the edit is shown as a change and approved', async ({ page, llm }) => {
  llm.enqueue(
    waitCall({ title: 'Post to the blog', description: 'Publishes publicly.', payload: { title: 'Helo world', tags: ['news'] } }),
    { content: 'Published.' },
  );
  await setUpEndpoint(page, llm);
  await send(page, 'publish the post');
  const post = card(page, 'Post to the blog');
  await expectNoSeriousViolations(page, 'section[aria-labelledby]');

  const editor = post.getByLabel('Payload');
  await editor.fill('{"title": "Hello world", "tags": [');
  await expect(post.getByRole('button', { name: 'Approve' })).toBeDisabled();
  await editor.fill('{"title": "Hello world", "tags": ["news"]}');
  await expect(post.getByText('Hello world').first()).toBeVisible();
  await post.getByRole('button', { name: 'Approve' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastUserMessage(second!.body)).toBe('Approval approval: approve\nPayload (edited by the user): {"title":"Hello world","tags":["news"]}');
  await expect(post.getByText('Approved', { exact: true })).toBeVisible();
});

test('a data entry form: required fields are checked and typed values reach the model', async ({ page, llm }) => {
  llm.enqueue(
    waitCall({
      title: 'Shipping details',
      description: 'Where should the parcel go?',
      kind: 'data_entry',
      payload: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Recipient name' },
          copies: { type: 'integer', title: 'Copies' },
          speed: { type: 'string', title: 'Speed', enum: ['standard', 'express'] },
          gift: { type: 'boolean', title: 'Gift wrap' },
        },
        required: ['name', 'copies'],
      },
    }),
    { content: 'Shipping it.' },
  );
  await setUpEndpoint(page, llm);
  await send(page, 'ship the book');
  const form = card(page, 'Shipping details');
  await expectNoSeriousViolations(page, 'section[aria-labelledby]');

  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Recipient name is required.')).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(1);

  await form.getByLabel('Recipient name').fill('Ada Lovelace');
  await form.getByLabel('Copies').fill('2');
  await form.getByLabel('Speed').selectOption('express');
  await form.getByLabel('Gift wrap').check();
  await form.getByRole('button', { name: 'Submit' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastUserMessage(second!.body)).toBe(
    'Approval data_entry: submitted\nData: {"name":"Ada Lovelace","copies":2,"speed":"express","gift":true}',
  );
  await expect(form.getByText('Submitted', { exact: true })).toBeVisible();
});

test('after a reload the card shows its description rendered from its first frame, never the markdown source', async ({ page, llm }) => {
  llm.enqueue(waitCall({ title: 'Send the report', description: 'Email **the Q3 report** now.' }));
  // Before any of the app's scripts: notes what the card holds at the moment its Approve button first exists.
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      const approve = [...document.querySelectorAll('button')].find((button) => button.textContent === 'Approve');
      if (!approve) return;
      observer.disconnect();
      const description = approve.closest('[data-pause-point]');
      document.documentElement.dataset.firstCardRender = description?.querySelector('strong') ? 'rendered' : (description?.textContent ?? '');
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  await setUpEndpoint(page, llm);
  await send(page, 'send the report');
  await expect(card(page, 'Send the report').getByRole('button', { name: 'Approve' })).toBeVisible();

  await page.reload();
  await expect(card(page, 'Send the report').getByRole('button', { name: 'Approve' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.dataset.firstCardRender)).toBe('rendered');
  await expect(card(page, 'Send the report').locator('strong', { hasText: 'the Q3 report' })).toBeVisible();
});
