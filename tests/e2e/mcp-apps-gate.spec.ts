import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { card, send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';
import { addClock, CLOCK_VIEW } from './mcp-apps-server.ts';
import type { AppServer } from './mcp-basic-app.ts';

// Issue 36 point 3: a call an MCP App's view makes goes through the same gate as the model's.
// Each test starts a real server process (the appServer fixture) (@modelcontextprotocol/server-basic-vanillajs) on a shared machine.
test.describe.configure({ timeout: 120_000 });


const ASKED_BY_VIEW = 'Asked by the interactive view of Clock, not by the model.';

/** Connects the example server as Clock, asks the model for the time, approves the model's call: its view shows that time. */
async function viewOfFirstCall(page: Page, llm: Parameters<typeof setUpEndpoint>[1], app: AppServer) {
  await setUpEndpoint(page, llm);
  await addClock(page, app, { views: true });

  llm.enqueue({ toolCalls: [{ id: 'call_time', name: 'clock__get-time', arguments: {} }] }, { content: 'Here is the time.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'what time is it on the server?');
  await card(page, 'Call get-time on Clock').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Here is the time.')).toBeVisible();
  // The model's call's row: a call the view makes has a row (and a view) of its own after it.
  const view = page.locator(`iframe[title="${CLOCK_VIEW}"]`).first().contentFrame().frameLocator('iframe');
  const time = view.locator('#server-time');
  await expect(time).toHaveText(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, { timeout: 20_000 });
  return { view, time, first: (await time.textContent())! };
}

/** The cards the view's button raised: the model's own card for the same tool does not say the view asked. */
const viewCards = (page: Page) => card(page, 'Call get-time on Clock').filter({ hasText: ASKED_BY_VIEW });

test('a button in the view raises a card that says the view asked; the server runs the call only after Approve, once, and the model is not asked', async ({ page, llm, appServer }) => {
  const { view, time, first } = await viewOfFirstCall(page, llm, appServer);
  const requestsBefore = llm.chatRequests().length;

  await view.getByRole('button', { name: 'Get Server Time' }).click();
  const gate = viewCards(page);
  await expect(gate).toBeVisible();
  // Nothing ran while the card waits: the view still shows the model's call's time.
  await page.waitForTimeout(1_500); // a run would have answered by now; the card is what holds it
  await expect(time).toHaveText(first);

  await gate.getByRole('button', { name: 'Approve' }).click();
  // The server's answer reaches the view: a time the server made after the press, not the first one.
  await expect(time).not.toHaveText(first, { timeout: 20_000 });
  await expect(time).toHaveText(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  // One row of the conversation, marked as the view's; the model is never asked about it.
  await expect(page.getByText('From a view:')).toHaveCount(1);
  expect(llm.chatRequests()).toHaveLength(requestsBefore);
});

test('Decline on the view’s card: the view is answered with an error, never with a time the server made', async ({ page, llm, appServer }) => {
  const { view, time } = await viewOfFirstCall(page, llm, appServer);
  await view.getByRole('button', { name: 'Get Server Time' }).click();
  const gate = viewCards(page);
  await expect(gate).toBeVisible();
  await gate.getByRole('button', { name: 'Decline' }).click();
  await expect(gate.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  // The example view writes what its tools/call returned: the host's refusal, where a run would have given a time.
  await expect(time).toHaveText('[ERROR]');
});

test('an allow rule lets the view’s call through without a card, and the audit log says the view proposed it', async ({ page, llm, appServer }) => {
  const { view, time, first } = await viewOfFirstCall(page, llm, appServer);
  await view.getByRole('button', { name: 'Get Server Time' }).click();
  await viewCards(page).getByRole('button', { name: 'Allow in this conversation' }).click();
  await expect(time).not.toHaveText(first, { timeout: 20_000 });
  const second = (await time.textContent())!;

  // The next press runs unasked: no card, a newer time.
  await view.getByRole('button', { name: 'Get Server Time' }).click();
  await expect(time).not.toHaveText(second, { timeout: 20_000 });
  await expect(viewCards(page)).toHaveCount(1);
  await expect(viewCards(page).getByRole('button', { name: 'Approve' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export audit log' }).click()]);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8')) as { entries: { proposed_by?: string; view_call_id?: string; decision_origin?: string }[] };
  const fromView = exported.entries.filter((entry) => entry.proposed_by === 'view');
  expect(fromView).toHaveLength(2);
  expect(fromView.every((entry) => entry.view_call_id === 'call_time')).toBe(true);
  expect(fromView.map((entry) => entry.decision_origin).sort()).toEqual(['human', 'rule']);
});
