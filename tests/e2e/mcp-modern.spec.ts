import type { Page } from '@playwright/test';
import { addServer, card, lastToolResult, send, setUpEndpoint } from './app.ts';
import { expect, mcpPort, test } from './fixtures.ts';
import { startModernServer, type ModernServer } from './mcp-modern.ts';

// Each test starts a real server process (and this machine is shared): more time than the default.
test.describe.configure({ timeout: 120_000 });

let modern: ModernServer;
// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
test.beforeEach(async ({}, testInfo) => {
  modern = await startModernServer(mcpPort(testInfo.workerIndex, 4));
});
test.afterEach(async () => {
  await modern.close();
});

test('a server on the 2026-07-28 revision (the SDK’s v2 server) adds by URL, lists its tools, and a call asks and runs', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  const server = await addModern(page);
  const tools = server.getByRole('list', { name: 'Tools of Modern' });
  await expect(tools.getByRole('listitem').filter({ hasText: 'echo' })).toContainText('read-only');
  await expect(tools.getByRole('switch', { name: 'add', exact: true })).toBeChecked();

  llm.enqueue({ toolCalls: [{ id: 'call_add', name: 'modern__add', arguments: { a: 2, b: 40 } }] }, { content: 'Added.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'add two and forty');
  const gate = card(page, 'Call add on Modern');
  await expect(gate).toContainText(modern.url);
  await gate.getByRole('button', { name: 'Approve' }).click();
  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('The sum of 2 and 40 is 42.');
  await expect(page.getByText('Added.')).toBeVisible();
  expect(await modern.calls()).toEqual([{ tool: 'add', args: { a: 2, b: 40 }, revision: '2026-07-28' }]);
});

test('a 2026-07-28 input_required elicitation is the same form card, and the retried call carries the answer to the server', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await addModern(page);

  llm.enqueue({ toolCalls: [{ id: 'call_greet', name: 'modern__greet', arguments: {} }] }, { content: 'Greeted.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'greet me');
  await card(page, 'Call greet on Modern').getByRole('button', { name: 'Approve' }).click();
  const form = card(page, 'Modern asks for information');
  await expect(form).toContainText('What is your name?');
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada Lovelace');
  await form.getByRole('button', { name: 'Submit' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('Hello, Ada Lovelace!');
  await expect(page.getByText('Greeted.')).toBeVisible();
  // The first round ran nothing; the call ran once, with the answer.
  expect(await modern.calls()).toEqual([{ tool: 'greet', args: { name: 'Ada Lovelace' }, revision: '2026-07-28' }]);
});

/** Adds the loopback server as Modern and waits until it is connected on 2026-07-28. */
async function addModern(page: Page) {
  return addServer(page, modern.url, 'Modern', 'Connected (Streamable HTTP, MCP 2026-07-28)');
}

test('a call the server runs as a task survives a reload mid-task: its result reaches the model, run once, never Outcome unknown', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await addModern(page);
  llm.enqueue({ toolCalls: [{ id: 'call_job', name: 'modern__slow_job', arguments: { label: 'R', seconds: 6 } }] }, { content: 'The job finished.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'run the job');
  await card(page, 'Call slow_job on Modern').getByRole('button', { name: 'Approve' }).click();
  const running = page.getByRole('group', { name: 'Running task' });
  await expect(running).toContainText('Running on the server as a task.');

  await page.reload();
  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('Job R done.');
  await expect(page.getByText('The job finished.')).toBeVisible();
  await expect(page.getByText('Outcome unknown')).toHaveCount(0);
  const jobs = (await modern.calls()).filter((call) => call.tool === 'slow_job');
  expect(jobs).toEqual([{ tool: 'slow_job', args: { label: 'R' }, revision: '2026-07-28', task: expect.stringMatching(/^task-/) }]);
});

test('a running task shows Cancel, and Cancel asks the server to cancel it: the model is told', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await addModern(page);
  llm.enqueue({ toolCalls: [{ id: 'call_job', name: 'modern__slow_job', arguments: { label: 'C', seconds: 120 } }] }, { content: 'Cancelled, as you asked.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'run the long job');
  await card(page, 'Call slow_job on Modern').getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('group', { name: 'Running task' }).getByRole('button', { name: 'Cancel', exact: true }).click();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('Cancelled: the server cancelled its task');
  await expect(page.getByText('Cancelled, as you asked.')).toBeVisible();
  const [job] = (await modern.calls()).filter((call) => call.tool === 'slow_job');
  expect(await (await fetch(`http://localhost:${modern.port}/test/tasks/${job!.task}`)).json()).toMatchObject({ status: 'cancelled' });
});

/** Approves the model's call to ship_job (a task that asks who signs it off); resolves with the question's form card and the task's id. */
async function startShipping(page: Page, llm: Parameters<typeof setUpEndpoint>[1], label: string, reply: string) {
  llm.enqueue({ toolCalls: [{ id: 'call_ship', name: 'modern__ship_job', arguments: { label, seconds: 1 } }] }, { content: reply });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, `ship job ${label}`);
  await card(page, 'Call ship_job on Modern').getByRole('button', { name: 'Approve' }).click();
  const form = card(page, 'Modern asks for information');
  await expect(form).toContainText(`Who signs off shipping job ${label}?`);
  const [job] = (await modern.calls()).filter((call) => call.tool === 'ship_job');
  return { form, taskId: job!.task! };
}

test('a task that asks (input_required) is a form card: the answer reaches the task, and its result reaches the model once', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await addModern(page);
  const { form, taskId } = await startShipping(page, llm, 'S', 'Shipped.');
  expect(await modern.task(taskId)).toMatchObject({ status: 'input_required', responses: [] });
  await form.getByRole('textbox', { name: 'Approver', exact: true }).fill('Grace Hopper');
  await form.getByRole('button', { name: 'Submit' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('Job S shipped, signed off by Grace Hopper.');
  await expect(page.getByText('Shipped.')).toBeVisible();
  expect(await modern.task(taskId)).toMatchObject({ status: 'completed', responses: [{ signoff: { action: 'accept', content: { approver: 'Grace Hopper' } } }] });
  expect((await modern.calls()).filter((call) => call.tool === 'ship_job')).toHaveLength(1);
  expect(llm.chatRequests()).toHaveLength(2);
});

test('Decline on a task’s question: the server gets a decline, and the model is told', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await addModern(page);
  const { form, taskId } = await startShipping(page, llm, 'D', 'Not shipped, as you declined.');
  await form.getByRole('button', { name: 'Decline' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('Job D not shipped: the sign-off was declined.');
  await expect(page.getByText('Not shipped, as you declined.')).toBeVisible();
  expect(await modern.task(taskId)).toMatchObject({ status: 'completed', responses: [{ signoff: { action: 'decline' } }] });
});

test('a task’s question survives a reload: the same card is there after it, and answering it still reaches the task', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await addModern(page);
  const { taskId } = await startShipping(page, llm, 'R', 'Shipped after the reload.');

  await page.reload();
  const form = card(page, 'Modern asks for information');
  await expect(form).toContainText('Who signs off shipping job R?');
  await form.getByRole('textbox', { name: 'Approver', exact: true }).fill('Ada Lovelace');
  await form.getByRole('button', { name: 'Submit' }).click();

  const [, second] = await llm.waitForChatRequests(2);
  expect(lastToolResult(second!.body)).toContain('Job R shipped, signed off by Ada Lovelace.');
  await expect(page.getByText('Shipped after the reload.')).toBeVisible();
  // One card, answered, before and after the reload: none expired as lost and asked anew, and no Outcome unknown.
  await expect(page.getByRole('region', { name: 'Modern asks for information', exact: true })).toHaveCount(1);
  await expect(page.getByText('Outcome unknown')).toHaveCount(0);
  expect(await modern.task(taskId)).toMatchObject({ status: 'completed', responses: [{ signoff: { action: 'accept', content: { approver: 'Ada Lovelace' } } }] });
  expect((await modern.calls()).filter((call) => call.tool === 'ship_job')).toHaveLength(1);
});

test('the server’s connection drops while a task is followed, without a reload: the poll reconnects, reads the task back, and the call completes once', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await addModern(page);
  llm.enqueue({ toolCalls: [{ id: 'call_job', name: 'modern__slow_job', arguments: { label: 'N', seconds: 5 } }] }, { content: 'The job finished despite the drop.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'run the job');
  await card(page, 'Call slow_job on Modern').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('group', { name: 'Running task' })).toContainText('Running on the server as a task.');

  // The listener closes (every open connection with it) and comes back on the same port 2 s later.
  await modern.dropFor(2_000);
  const [, second] = await llm.waitForChatRequests(2, 30_000);
  expect(lastToolResult(second!.body)).toContain('Job N done.');
  await expect(page.getByText('The job finished despite the drop.')).toBeVisible();
  await expect(page.getByText('Outcome unknown')).toHaveCount(0);
  expect((await modern.calls()).filter((call) => call.tool === 'slow_job')).toEqual([{ tool: 'slow_job', args: { label: 'N' }, revision: '2026-07-28', task: expect.stringMatching(/^task-/) }]);
});
