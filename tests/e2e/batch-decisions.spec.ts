import { readFile } from 'node:fs/promises';
import { messageText, type FakeLlm } from '../fake-llm/index.ts';
import { checkJsonSchema } from '../../src/audit/testing/json-schema-check.ts';
import { card, send, setUpEndpoint, waitCall } from './app.ts';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations } from './page-checks.ts';

/** The requests that reached the sink at `path`, CORS preflights left out. */
const sent = (llm: FakeLlm, path: string) => llm.sinkHits(path).filter((hit) => hit.method !== 'OPTIONS');

/** One answer with two gated requests to the fake server's sink: a POST (changes) and a DELETE (destructive). */
function twoRequests(llm: FakeLlm) {
  return {
    toolCalls: [
      { id: 'call_post', name: 'http_request', arguments: { method: 'POST', url: `${llm.origin}/sink/invoices`, body: '{"amount":120}' } },
      { id: 'call_delete', name: 'http_request', arguments: { method: 'DELETE', url: `${llm.origin}/sink/drafts/7` } },
    ],
  };
}

test('Approve all: the dialog lists both cards with their risk, each is decided, one continuation carries both, and the audit export has one batch id', async ({ page, llm }) => {
  llm.enqueue(twoRequests(llm), { content: 'Invoice sent and draft deleted.' });
  await setUpEndpoint(page, llm);
  await send(page, 'send the invoice and delete the draft');
  const host = new URL(llm.origin).host;
  const post = card(page, `POST to ${host}`);
  const del = card(page, `DELETE to ${host}`);
  await expect(post).toBeVisible();
  await expect(del).toBeVisible();
  // Each card carries its label as a word.
  await expect(post.getByText('Changes', { exact: true })).toBeVisible();
  await expect(del.getByText('Destructive', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Approve all' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve all 2 requests?' });
  await expect(dialog).toBeVisible();
  const items = dialog.getByRole('list', { name: 'Requests to approve' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  // Cards of one answer share their time: the list's order between them is the stored order, so each is found by its title.
  const postItem = items.filter({ hasText: `POST to ${host}` });
  await expect(postItem).toContainText(`${llm.origin}/sink/invoices`);
  await expect(postItem).toContainText('Changes');
  const deleteItem = items.filter({ hasText: `DELETE to ${host}` });
  await expect(deleteItem).toContainText(`${llm.origin}/sink/drafts/7`);
  await expect(deleteItem).toContainText('Destructive');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoSeriousViolations(page, 'dialog[open]');
  await page.screenshot({ path: '/tmp/i28-approve-all-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: '/tmp/i28-approve-all-390.png' });
  await expectNoSeriousViolations(page, 'dialog[open]');
  await page.setViewportSize({ width: 1280, height: 800 });

  expect(llm.sinkHits()).toHaveLength(0);
  await dialog.getByRole('button', { name: 'Approve all' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Approved 2 of 2.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Invoice sent and draft deleted.')).toBeVisible();

  // One continuation: the second model request carries both decisions and both results, and there is no third.
  const requests = llm.chatRequests();
  expect(requests).toHaveLength(2);
  const continued = requests[1]!.body.messages;
  expect(continued.filter((m) => m.role === 'tool').map(messageText)).toEqual([expect.stringContaining('HTTP 200'), expect.stringContaining('HTTP 200')]);
  expect(sent(llm, '/sink/invoices')).toHaveLength(1);
  expect(sent(llm, '/sink/drafts/7')).toHaveLength(1);

  await page.getByRole('link', { name: 'Audit log' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export audit log' }).click()]);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(checkJsonSchema(JSON.parse(await readFile('docs/audit-log.schema.json', 'utf8')), exported)).toEqual([]);
  const decisions = exported.entries.filter((e: { entry_type: string }) => e.entry_type === 'decision');
  expect(decisions).toHaveLength(2);
  const batchIds = new Set(decisions.map((e: { batch_id?: string }) => e.batch_id));
  expect(batchIds.size).toBe(1);
  expect([...batchIds][0]).toEqual(expect.any(String));
  expect(decisions.map((e: { title: string; risk: string; resolution: string }) => [e.title, e.risk, e.resolution]).sort()).toEqual([
    [`DELETE to ${host}`, 'destructive', 'approve'],
    [`POST to ${host}`, 'changes', 'approve'],
  ]);
});

test('Decline all in the Approvals inbox: one reason for all; a card another tab decided meanwhile is skipped and the dialog says so', async ({ context, page, llm }) => {
  llm.enqueue(twoRequests(llm), { content: 'Nothing was sent.' });
  await setUpEndpoint(page, llm);
  await send(page, 'send the invoice and delete the draft');
  const host = new URL(llm.origin).host;
  await expect(card(page, `DELETE to ${host}`)).toBeVisible();

  await page.getByRole('link', { name: /Approvals/ }).click();
  await page.getByRole('button', { name: 'Decline all' }).click();
  const dialog = page.getByRole('dialog', { name: 'Decline all 2 requests?' });
  await expect(dialog.getByRole('listitem')).toHaveCount(2);
  await expectNoSeriousViolations(page, 'dialog[open]');

  // While the dialog is open, another tab approves the DELETE.
  const other = await context.newPage();
  await other.goto('/#/approvals');
  await card(other, `DELETE to ${host}`).getByRole('button', { name: 'Approve' }).click();
  // Decided and stored: the other tab's inbox no longer lists it.
  await expect(card(other, `DELETE to ${host}`)).toHaveCount(0);

  await dialog.getByLabel('Reason').fill('Not this week');
  await dialog.getByRole('button', { name: 'Decline all' }).click();
  await expect(dialog.getByRole('status')).toContainText('Declined 1 of 2.');
  await expect(dialog.getByRole('status')).toContainText(`Skipped “DELETE to ${host}”: it was decided elsewhere first`);
  await dialog.getByRole('button', { name: 'Close' }).click();

  await expect.poll(() => llm.chatRequests().length).toBe(2);
  const results = llm.chatRequests()[1]!.body.messages.filter((m) => m.role === 'tool').map(messageText);
  expect(results).toEqual([expect.stringContaining('Not this week'), expect.stringContaining('HTTP 200')]);
  expect(sent(llm, '/sink/invoices')).toHaveLength(0);
  expect(sent(llm, '/sink/drafts/7')).toHaveLength(1);
});

test('keyboard: ? lists the shortcuts; A on a focused card approves; D opens the decline; J and K move between the inbox cards', async ({ page, llm }) => {
  llm.enqueue(
    waitCall({ title: 'Send the campaign', description: 'Email **1,204** subscribers.' }),
    { content: 'Campaign sent.' },
    twoRequests(llm),
    { content: 'Understood.' },
  );
  await setUpEndpoint(page, llm);

  // ? opens the list (not while typing in the message box).
  await page.getByRole('textbox', { name: 'Message' }).press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();
  await page.getByRole('heading', { name: 'New chat' }).click();
  await page.keyboard.press('?');
  const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(shortcuts).toBeVisible();
  await expect(shortcuts).toContainText('Approve the focused card');
  await expectNoSeriousViolations(page, 'dialog[open]');
  await page.keyboard.press('Escape');
  await expect(shortcuts).toBeHidden();
  // The same list without the key.
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(shortcuts).toBeVisible();
  await shortcuts.getByRole('button', { name: 'Close' }).click();

  await send(page, 'send the campaign');
  const campaign = card(page, 'Send the campaign');
  await expect(campaign.getByText('Unknown effect', { exact: true })).toBeVisible();
  // The card never takes the focus by itself: J moves to it, and its keys work once it has been on screen half a second.
  await expect(campaign).not.toBeFocused();
  await page.getByRole('heading', { level: 2 }).first().click();
  await page.keyboard.press('j');
  await expect(campaign).toBeFocused();
  await expect(campaign).toHaveAttribute('aria-keyshortcuts', 'A D');
  await page.keyboard.press('a');
  await expect(page.getByText('Campaign sent.')).toBeVisible();
  expect(messageText(llm.chatRequests()[1]!.body.messages.filter((m) => m.role === 'user').at(-1))).toBe('Approval approval: approve');

  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'send the invoice and delete the draft');
  const host = new URL(llm.origin).host;
  await expect(card(page, `DELETE to ${host}`)).toBeVisible();
  await page.getByRole('link', { name: /Approvals/ }).click();
  const cards = page.locator('ul.inbox section[data-pause-point]');
  await expect(cards).toHaveCount(2);
  const [first, second] = [cards.nth(0), cards.nth(1)];
  await page.getByRole('heading', { name: 'Approvals' }).click();
  await page.keyboard.press('j');
  await expect(first).toBeFocused();
  await page.keyboard.press('j');
  await expect(second).toBeFocused();
  await page.keyboard.press('k');
  await expect(first).toBeFocused();

  const firstTitle = (await first.getByRole('heading').first().textContent())!;
  // D decides nothing until the card has been on screen for a moment (card-keys.svelte.ts); the card says when.
  await expect(first).toHaveAttribute('aria-keyshortcuts', 'A D');
  await page.keyboard.press('d');
  const decline = page.getByRole('dialog', { name: `Decline “${firstTitle}”?` });
  await expect(decline).toBeVisible();
  await expectNoSeriousViolations(page, 'dialog[open]');
  // Typing its reason is text: the a and d in it are letters, not shortcuts.
  await decline.getByLabel('Reason').pressSequentially('bad amount');
  await expect(decline).toBeVisible();
  await decline.getByRole('button', { name: 'Decline' }).click();
  // Decided: the inbox holds only the other card now, still waiting.
  await expect(cards).toHaveCount(1);
  await expect(page.getByRole('region', { name: firstTitle, exact: true })).toHaveCount(0);
  await expect(cards.first().getByRole('button', { name: 'Approve' })).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(3);
});
