import type { Browser, Page } from '@playwright/test';
import { card, send, serviceWorkerInControl, setUpEndpoint, waitCall } from './app.ts';
import { expect, test, type SyncServer } from './fixtures.ts';

/**
 * Two browser contexts are two devices, each with its own storage, syncing
 * through a real CouchDB-protocol server (pouchdb-server on loopback, with a
 * user and the database's `_security`). The laptop runs the conversation and
 * holds the API key; the phone joins with the pairing link and code only.
 */
const PASSPHRASE = 'correct horse battery staple';

async function openDevices(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  const devices = page.getByRole('region', { name: 'Devices' });
  await expect(devices).toBeVisible();
  return devices;
}

async function turnOnSync(page: Page, couch: SyncServer, database: string, name: string, passphrase = PASSPHRASE) {
  const devices = await openDevices(page);
  await devices.getByLabel("This device's name").fill(name);
  await devices.getByLabel('Sync server URL').fill(couch.url);
  await devices.getByLabel('Database').fill(database);
  await devices.getByLabel('User name').fill(couch.user.username);
  await devices.getByLabel('Password', { exact: true }).fill(couch.user.password);
  await devices.getByLabel('Encryption passphrase').fill(passphrase);
  await devices.getByLabel('Repeat passphrase').fill(passphrase);
  await devices.getByRole('button', { name: 'Turn on sync' }).click();
  return devices;
}

/** Opens a card that arrives by sync, as a person would: once the inbox counts it, Next pending approval. */
async function openArrivedCard(phone: Page, title: string) {
  await expect(phone.getByRole('link', { name: /^Approvals 1 pending/ })).toBeVisible({ timeout: 20_000 });
  await phone.getByRole('button', { name: 'Next pending approval' }).click();
  const arrived = card(phone, title);
  await expect(arrived).toBeVisible();
  return arrived;
}

/** The laptop turns sync on; the phone, a fresh context with no model set up, joins with the link and code. */
async function pairLaptopAndPhone(browser: Browser, laptop: Page, couch: SyncServer, database: string) {
  const devices = await turnOnSync(laptop, couch, database, 'Laptop');
  await expect(devices.getByRole('status')).toContainText(/Up to date/i, { timeout: 20_000 });
  await devices.getByRole('button', { name: 'Add a device' }).click();
  const link = await devices.getByLabel('Pairing link').inputValue();
  const code = await devices.getByLabel('Pairing code').inputValue();
  await expect(devices.getByRole('img', { name: 'Pairing QR code' })).toBeVisible();

  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await phone.goto(link);
  const join = phone.getByRole('dialog', { name: 'Join' });
  await join.getByLabel('Pairing code').fill(code);
  await join.getByLabel("This device's name").fill('Phone');
  await join.getByRole('button', { name: 'Join' }).click();
  await expect(join).toBeHidden({ timeout: 20_000 });
  expect(new URL(phone.url()).hash).not.toContain('pair=');
  return { phone, phoneContext };
}

test('pair, see the laptop’s card on the phone, approve there: one continuation on the laptop, and both say who decided', async ({ browser, page, llm, couch }) => {
  test.setTimeout(90_000);
  const database = await couch.database();
  await setUpEndpoint(page, llm);
  const { phone, phoneContext } = await pairLaptopAndPhone(browser, page, couch, database);

  llm.enqueue(waitCall({ title: 'Send the Q3 report', description: 'Email the report to **12** recipients.' }), { content: 'Sent to all 12.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'send the q3 report');
  await expect(card(page, 'Send the Q3 report')).toBeVisible();

  const onPhone = await openArrivedCard(phone, 'Send the Q3 report');
  await expect(phone.getByText('Runs on Laptop')).toBeVisible();
  await onPhone.getByRole('button', { name: 'Approve' }).click();

  await expect(page.getByText('Sent to all 12.')).toBeVisible({ timeout: 20_000 });
  await expect(card(page, 'Send the Q3 report')).toContainText('Phone');
  await expect(phone.getByText('Sent to all 12.')).toBeVisible({ timeout: 20_000 });
  expect(llm.chatRequests()).toHaveLength(2);
  await phoneContext.close();
});

test('the phone decides while the laptop is closed: the laptop opens and resumes once', async ({ browser, page, llm, couch, context }) => {
  test.setTimeout(90_000);
  const database = await couch.database();
  await setUpEndpoint(page, llm);
  const { phone, phoneContext } = await pairLaptopAndPhone(browser, page, couch, database);
  llm.enqueue(waitCall({ title: 'Archive the old invoices', description: 'Moves **340** invoices to the archive.' }), { content: 'Archived.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'archive the invoices');
  await expect(card(page, 'Archive the old invoices')).toBeVisible();
  // The card has reached the phone (a device closed before it pushed keeps its card to itself until it opens again).
  const onPhone = await openArrivedCard(phone, 'Archive the old invoices');
  const url = page.url();
  await page.close();

  await onPhone.getByRole('button', { name: 'Approve' }).click();
  await expect(card(phone, 'Archive the old invoices')).toContainText(/Sent to Laptop|Laptop/);
  expect(llm.chatRequests()).toHaveLength(1);

  const reopened = await context.newPage();
  await reopened.goto(url);
  await expect(reopened.getByText('Archived.')).toBeVisible({ timeout: 20_000 });
  await expect(phone.getByText('Archived.')).toBeVisible({ timeout: 20_000 });
  expect(llm.chatRequests()).toHaveLength(2);
  await phoneContext.close();
});

test('a wrong passphrase on a second device is refused and changes nothing', async ({ browser, page, llm, couch }) => {
  const database = await couch.database();
  await setUpEndpoint(page, llm);
  const devices = await turnOnSync(page, couch, database, 'Laptop');
  await expect(devices.getByRole('status')).toContainText(/Up to date/i, { timeout: 20_000 });

  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await setUpEndpoint(other, llm);
  const refused = await turnOnSync(other, couch, database, 'Tablet', 'not the passphrase');
  await expect(refused.getByRole('alert')).toContainText(/passphrase/i);
  await expect(refused.getByRole('button', { name: 'Turn on sync' })).toBeVisible();
  await otherContext.close();
});

test('the server stores none of what a card or a conversation says', async ({ browser, page, llm, couch }) => {
  test.setTimeout(90_000);
  const database = await couch.database();
  await setUpEndpoint(page, llm);
  const { phone, phoneContext } = await pairLaptopAndPhone(browser, page, couch, database);
  llm.enqueue(waitCall({ title: 'Wire 4,200 EUR to Globex', description: 'IBAN DE89 3704 0044 0532 0130 00, **cannot be undone**.', payload: { iban: 'DE89370400440532013000' } }), { content: 'Wired the money.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'pay the Globex invoice');
  await expect(card(page, 'Wire 4,200 EUR to Globex')).toBeVisible();
  await (await openArrivedCard(phone, 'Wire 4,200 EUR to Globex')).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Wired the money.')).toBeVisible({ timeout: 20_000 });
  await expect(phone.getByText('Wired the money.')).toBeVisible({ timeout: 20_000 });

  const stored = await couch.allDocs(database);
  expect(stored).toContain('"e"');
  for (const plain of ['Globex', '4,200', 'DE89', 'pay the Globex invoice', 'Wired the money', 'Laptop', 'Phone', 'wait_for_approval']) {
    expect(stored, plain).not.toContain(plain);
  }
  await phoneContext.close();
});

test('both press Approve at once: one continuation, and the device that lost says who was first', async ({ browser, page, llm, couch }) => {
  test.setTimeout(90_000);
  const database = await couch.database();
  await setUpEndpoint(page, llm);
  const { phone, phoneContext } = await pairLaptopAndPhone(browser, page, couch, database);
  llm.enqueue(waitCall({ title: 'Publish the release', description: 'Tags **v2.0** and publishes it.' }), { content: 'Published.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'publish the release');
  await expect(card(page, 'Publish the release')).toBeVisible();
  const onPhone = await openArrivedCard(phone, 'Publish the release');

  // Both clicks are dispatched together, before either device can hear of the other's.
  const buttons = await Promise.all([card(page, 'Publish the release'), onPhone].map((c) => c.getByRole('button', { name: 'Approve' }).elementHandle()));
  await Promise.all(buttons.map((button) => button!.evaluate((b: HTMLButtonElement) => b.click())));

  await expect(page.getByText('Published.')).toBeVisible({ timeout: 20_000 });
  await expect(phone.getByText('Published.')).toBeVisible({ timeout: 20_000 });
  // The device that lost hears of the other's decision through sync, which may come after the answer does:
  // watched until one says so. Both saying it (2) fails as surely as neither.
  const lost = () =>
    Promise.all([
      card(page, 'Publish the release').getByText('Decided on Phone first').count(),
      card(phone, 'Publish the release').getByText('Decided on Laptop first').count(),
    ]).then(([a, b]) => a + b);
  await expect.poll(lost, { timeout: 20_000 }).toBe(1);
  expect(llm.chatRequests()).toHaveLength(2);
  await phoneContext.close();
});

test.describe('offline on the laptop', () => {
  // An app that works offline is one its service worker controls: the decision's code comes from the precache
  // (playwright.config.ts blocks the service worker in tests not about it).
  test.use({ serviceWorkers: 'allow' });

  test('the laptop decides offline while the phone decides: one continuation, and both end showing the laptop’s decision', async ({ browser, page, llm, couch, context }) => {
    test.setTimeout(90_000);
    const database = await couch.database();
    await setUpEndpoint(page, llm);
    const { phone, phoneContext } = await pairLaptopAndPhone(browser, page, couch, database);
    llm.enqueue(waitCall({ title: 'Delete the staging database', description: 'Drops **staging**; cannot be undone.' }), { content: 'Deleted staging.' });
    await page.getByRole('button', { name: 'New chat' }).click();
    await send(page, 'delete staging');
    await expect(card(page, 'Delete the staging database')).toBeVisible();
    const onPhone = await openArrivedCard(phone, 'Delete the staging database');

    await serviceWorkerInControl(page);
    await context.setOffline(true);
    await card(page, 'Delete the staging database').getByRole('button', { name: 'Approve' }).click();
    await onPhone.getByRole('button', { name: 'Decline' }).click();
    await expect(onPhone).toContainText('Sent to Laptop');
    await context.setOffline(false);

    await expect(page.getByText('Deleted staging.')).toBeVisible({ timeout: 30_000 });
    await expect(onPhone).toContainText('Not applied: Laptop decided first while offline', { timeout: 30_000 });
    await expect(phone.getByText('Deleted staging.')).toBeVisible({ timeout: 20_000 });
    expect(llm.chatRequests()).toHaveLength(2);
    await phoneContext.close();
  });
});

test('the sync server down, then up: the phone’s decision waits, then reaches the laptop once', async ({ browser, page, llm, couch }) => {
  test.setTimeout(120_000);
  const database = await couch.database();
  await setUpEndpoint(page, llm);
  const { phone, phoneContext } = await pairLaptopAndPhone(browser, page, couch, database);
  llm.enqueue(waitCall({ title: 'Renew the certificate', description: 'Renews **api.example.com** for 90 days.' }), { content: 'Renewed.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'renew the certificate');
  const onPhone = await openArrivedCard(phone, 'Renew the certificate');

  let down = true;
  await phoneContext.route(`${couch.url}/**`, (route) => (down ? route.abort('connectionrefused') : route.continue()));
  await onPhone.getByRole('button', { name: 'Approve' }).click();
  await expect(onPhone.getByRole('status').filter({ hasText: 'Waiting for the sync server' })).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(1);
  down = false;
  await expect(page.getByText('Renewed.')).toBeVisible({ timeout: 60_000 });
  await expect(phone.getByText('Renewed.')).toBeVisible({ timeout: 30_000 });
  expect(llm.chatRequests()).toHaveLength(2);
  await phoneContext.close();
});
