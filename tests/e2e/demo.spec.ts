import { card, send } from './app.ts';
import { expect, test } from './fixtures.ts';

test('a newcomer without a key: the Demo model is the default and walks through a card, offline and scripted', async ({ context, page }) => {
  const outbound: string[] = [];
  const app = test.info().project.use.baseURL!;
  context.on('request', (request) => {
    if (!request.url().startsWith(app)) outbound.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByLabel('Provider')).toHaveValue('demo');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click(); // the Model section's; Push notifications has its own

  await send(page, 'please send the newsletter');
  const approval = card(page, 'Send the April newsletter to 1,284 subscribers');
  await expect(approval).toBeVisible();
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(approval.getByText('Approved', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Ready' })).toBeVisible();
  // Scripted and offline: the demo never leaves the browser.
  expect(outbound).toEqual([]);
});

test('the demo’s POST, once approved, lands in the demo sink inside the browser: no request leaves', async ({ context, page }) => {
  const outbound: string[] = [];
  const app = test.info().project.use.baseURL!;
  context.on('request', (request) => {
    if (!request.url().startsWith(app)) outbound.push(`${request.method()} ${request.url()}`);
  });
  await page.goto('/');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click(); // the Model section's; Push notifications has its own

  await send(page, 'post the order');
  const gate = page.getByRole('region', { name: /^POST to / });
  await expect(gate).toBeVisible();
  await gate.getByRole('button', { name: 'Approve' }).click();
  await expect(gate.getByText('Approved', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Ready' })).toBeVisible();
  expect(outbound).toEqual([]);
  // The demo shows what landed: the sink's receipt, quoted in its answer.
  await expect(gate).toHaveAccessibleName('POST to demo.pausepoint.invalid');
  await expect(page.getByRole('main').getByText(/nothing left this browser/).last()).toBeVisible();
  await expect(page.getByRole('main').getByText(/coffee beans/).last()).toBeVisible();
});
