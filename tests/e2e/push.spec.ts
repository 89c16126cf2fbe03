import type { Browser, Page } from '@playwright/test';
import type { FakeNtfy } from '../fake-ntfy/index.ts';
import { card, send, setUpEndpoint, waitCall } from './app.ts';
import { expect, test, type SyncServer } from './fixtures.ts';

/**
 * Push notifications through the person's ntfy server (a loopback stand-in,
 * tests/fake-ntfy): two browser contexts are two devices syncing through
 * pouchdb-server, as in sync.spec.ts. The laptop runs the conversation and
 * pushes; the phone has no page open until it follows the push's link.
 */
const PASSPHRASE = 'correct horse battery staple';

async function pushSettings(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  const push = page.getByRole('region', { name: 'Push notifications' });
  await expect(push).toBeVisible();
  return push;
}

/** Sets push up through Settings, as a person would, with a 1 s grace period (the default 20 s would only slow the test). */
async function setUpPush(page: Page, ntfy: FakeNtfy) {
  const push = await pushSettings(page);
  await push.getByLabel('Push server URL').fill(ntfy.url);
  await push.getByLabel('Wait before pushing (seconds)').fill('1');
  await push.getByRole('button', { name: 'Save' }).click();
  await expect(push.getByRole('status')).toContainText('Saved');
  await expect(push.getByRole('img', { name: /QR code that subscribes/ })).toBeVisible();
  return push;
}

async function pair(browser: Browser, laptop: Page, couch: SyncServer) {
  const database = await couch.database();
  await laptop.getByRole('link', { name: 'Settings' }).click();
  const devices = laptop.getByRole('region', { name: 'Devices' });
  await devices.getByLabel("This device's name").fill('Laptop');
  await devices.getByLabel('Sync server URL').fill(couch.url);
  await devices.getByLabel('Database').fill(database);
  await devices.getByLabel('User name').fill(couch.user.username);
  await devices.getByLabel('Password', { exact: true }).fill(couch.user.password);
  await devices.getByLabel('Encryption passphrase').fill(PASSPHRASE);
  await devices.getByLabel('Repeat passphrase').fill(PASSPHRASE);
  await devices.getByRole('button', { name: 'Turn on sync' }).click();
  await expect(devices.getByRole('status')).toContainText(/Up to date/i, { timeout: 20_000 });
  await devices.getByRole('button', { name: 'Add a device' }).click();
  const link = await devices.getByLabel('Pairing link').inputValue();
  const code = await devices.getByLabel('Pairing code').inputValue();

  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await phone.goto(link);
  const join = phone.getByRole('dialog', { name: 'Join' });
  await join.getByLabel('Pairing code').fill(code);
  await join.getByLabel("This device's name").fill('Phone');
  await join.getByRole('button', { name: 'Join' }).click();
  await expect(join).toBeHidden({ timeout: 20_000 });
  return { phone, phoneContext };
}

test('a card raised while the phone is closed reaches it as a push that says nothing of it; its link opens the card there, and Approve resumes the laptop once', async ({ browser, page, llm, couch, ntfy }) => {
  test.setTimeout(120_000);
  await setUpEndpoint(page, llm);
  const { phone, phoneContext } = await pair(browser, page, couch);
  // The phone is put away: no page of it is open, so nothing of it runs.
  await phone.close();
  await setUpPush(page, ntfy);

  llm.enqueue(waitCall({ title: 'Wire 4,200 EUR to Globex', description: 'IBAN DE89 3704 0044 0532 0130 00, **cannot be undone**.', payload: { iban: 'DE89370400440532013000' } }), {
    content: 'Wired the money.',
  });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'pay the Globex invoice');
  await expect(card(page, 'Wire 4,200 EUR to Globex')).toBeVisible();
  // The person walks away from the laptop's card: its tab shows something else.
  await page.getByRole('link', { name: 'Settings' }).click();

  const [publish] = await ntfy.waitForPublishes(1);
  expect(publish).toMatchObject({ title: 'Pausepoint', message: 'A decision is waiting' });
  const raw = JSON.stringify(publish!.raw);
  for (const word of ['Wire', '4,200', 'Globex', 'IBAN', 'DE89', 'undone', 'wait_for_approval', 'pay the', 'Laptop', 'Phone']) expect(raw).not.toContain(word);
  const click = new URL(publish!.click!);
  expect(click.origin).toBe(new URL(page.url()).origin);
  expect(click.hash).toMatch(/^#card=[0-9a-f-]{36}$/);
  // One push for one card: the grace period passed once.
  await page.waitForTimeout(2_000);
  expect(ntfy.published).toHaveLength(1);

  // The phone follows the link: its card's document is on the server, not yet on the phone.
  const opened = await phoneContext.newPage();
  await opened.goto(click.href);
  const arrived = card(opened, 'Wire 4,200 EUR to Globex');
  await expect(arrived).toBeVisible({ timeout: 20_000 });
  await arrived.getByRole('button', { name: 'Approve' }).click();

  await expect(page.getByRole('link', { name: /Wire 4,200|pay the Globex/ }).first()).toBeVisible();
  await expect.poll(() => llm.chatRequests().length, { timeout: 20_000 }).toBe(2);
  await expect(opened.getByText('Wired the money.')).toBeVisible({ timeout: 20_000 });
  await page.waitForTimeout(1_000);
  expect(llm.chatRequests()).toHaveLength(2);
  await phoneContext.close();
});

test('a device that syncs shows Fetching the card… until the card’s document arrives', async ({ browser, page, llm, couch, ntfy }) => {
  test.setTimeout(120_000);
  await setUpEndpoint(page, llm);
  const { phone, phoneContext } = await pair(browser, page, couch);
  await phone.close();
  await setUpPush(page, ntfy);
  llm.enqueue(waitCall({ title: 'Archive the old invoices', description: 'Moves **340** invoices.' }), { content: 'Archived.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'archive');
  await expect(card(page, 'Archive the old invoices')).toBeVisible();
  await page.getByRole('link', { name: 'Settings' }).click();
  const [publish] = await ntfy.waitForPublishes(1);

  // The sync server is out of the phone's reach for now: the link can only wait.
  await phoneContext.route(`${couch.url}/**`, (route) => route.abort());
  const opened = await phoneContext.newPage();
  await opened.goto(publish!.click!);
  await expect(opened.getByRole('heading', { name: 'Fetching the card…' })).toBeVisible();
  await phoneContext.unroute(`${couch.url}/**`);
  await expect(card(opened, 'Archive the old invoices')).toBeVisible({ timeout: 30_000 });
  await expect(opened.getByRole('heading', { name: 'Fetching the card…' })).toBeHidden();
  await phoneContext.close();
});

test('a card link on a device that is not paired says so and offers pairing', async ({ page }) => {
  await page.goto('/#card=3b0f2c9e-8d7a-4e63-9c1b-2f5a6d7e8f90');
  await expect(page.getByRole('heading', { name: 'This device is not paired' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pair this device' })).toBeVisible();
});

test('Save checks the server: a refused token, a bad address and a busy server are said next to their field, and nothing is saved', async ({ page, llm, ntfy }) => {
  await setUpEndpoint(page, llm);
  const push = await pushSettings(page);
  await push.getByLabel('Push server URL').fill('ftp://example.com');
  await push.getByRole('button', { name: 'Save' }).click();
  await expect(push.getByLabel('Push server URL')).toHaveAccessibleDescription(/must start with https/);

  await push.getByLabel('Push server URL').fill(ntfy.url);
  ntfy.failNext(401);
  await push.getByRole('button', { name: 'Save' }).click();
  await expect(push.getByLabel('Access token')).toHaveAccessibleDescription(/wants an access token/);
  ntfy.failNext(429);
  await push.getByRole('button', { name: 'Save' }).click();
  await expect(push.getByLabel('Push server URL')).toHaveAccessibleDescription(/too many requests/);
  await expect(push.getByRole('button', { name: 'Turn off' })).toHaveCount(0);

  await page.reload();
  const again = await pushSettings(page);
  await expect(again.getByRole('button', { name: 'Turn off' })).toHaveCount(0);
  await again.getByLabel('Push server URL').fill(ntfy.url);
  await again.getByRole('button', { name: 'Send a test' }).click();
  await expect(again.getByRole('status')).toContainText('Test sent');
  expect(ntfy.published.at(-1)).toMatchObject({ title: 'Pausepoint' });
});

test('If nobody decides: the card is declined after the (test-shortened) wait, with a push before it, the model is told, and the audit log names the timeout', async ({ page, llm, ntfy }) => {
  test.setTimeout(90_000);
  await setUpEndpoint(page, llm);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('If nobody decides').selectOption({ label: 'decline after 1 h' });
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await expect(page.getByText('Saved. New requests use these settings.')).toBeVisible();
  await setUpPush(page, ntfy);
  // Only a build with PAUSEPOINT_PROBES=1 reads this row (engine-settings.ts): the hour becomes 8 s.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('pausepoint');
        open.onsuccess = () => {
          const tx = open.result.transaction('settings', 'readwrite');
          tx.objectStore('settings').put({ key: 'probeDeclineAfterMs', value: 8_000 });
          tx.oncomplete = () => (open.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
        open.onerror = () => reject(open.error);
      }),
  );

  llm.enqueue(waitCall({ title: 'Delete the staging database', description: 'Drops **every** table.' }), { content: 'Left it alone: nobody approved.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'clean up staging');
  await expect(card(page, 'Delete the staging database')).toBeVisible();
  await page.getByRole('link', { name: 'Audit log' }).click();

  await expect.poll(() => ntfy.published.map((p) => p.message).join('\n'), { timeout: 20_000 }).toMatch(/Declined automatically in \d+ min unless you decide/);
  await expect.poll(() => llm.chatRequests().length, { timeout: 30_000 }).toBe(2);
  const told = llm.chatRequests()[1]!.body.messages.at(-1);
  expect(told?.content).toBe('Approval approval: decline - Nobody decided within 8 s: declined automatically (Settings: If nobody decides).');
  await page.reload();
  const entry = page.getByRole('article', { name: 'Delete the staging database' });
  await expect(entry.getByRole('definition').filter({ hasText: /^Timeout \(If nobody decides\)$/ })).toBeVisible();
  // The pushes are in the audit log too: that one went, to which server, and why; nothing of what the card said.
  await expect(page.getByRole('article', { name: 'Push notification sent' }).first()).toContainText(ntfy.url);
});

test('a push that fails shows on every screen, not only in Settings, and goes once a retry gets through', async ({ page, llm, ntfy }) => {
  // Set-up through Settings, a card, and the retry's 5 s: 66 s once at load 20.
  test.setTimeout(90_000);
  await setUpEndpoint(page, llm);
  await setUpPush(page, ntfy);
  llm.enqueue(waitCall({ title: 'Archive the old invoices', description: 'Moves **340** invoices.' }), { content: 'Archived.' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'archive the invoices');
  await expect(card(page, 'Archive the old invoices')).toBeVisible();
  // The first publish meets a 503; the card is not on screen here (a visible card is never pushed).
  ntfy.failNext(503);
  await page.getByRole('link', { name: 'Audit log' }).click();
  const note = page.getByRole('region', { name: 'Push failed' });
  await expect(note.getByRole('status')).toHaveText(/^Last push: failed just now — .+/, { timeout: 15_000 });
  await expect(note.getByRole('link', { name: 'Push settings' })).toHaveAttribute('href', '#/settings');
  // Tried again after 5 s: it goes, and the note with it.
  await ntfy.waitForPublishes(1, 20_000);
  await expect(note).toBeHidden();
});
