import type { BrowserContext, Page, Worker } from '@playwright/test';
import { decisionView } from '../../src/engine/decision-view.ts';
import type { PausePoint } from '../../src/engine/records/index.ts';
import { viewHash } from '../../src/engine/view-hash.ts';
import { card, send, serviceWorkerInControl as pageUnderControl, setUpEndpoint, waitCall } from './app.ts';
import { expect, test } from './fixtures.ts';

/*
 * The service worker's notifications. Headless Chromium shows no notification
 * a person could click, so the tests dispatch the events the browser would:
 * `message` from a page and `notificationclick` with an action, inside the
 * service worker (Playwright evaluates there). Such script-made events carry no
 * user activation, so `clients.openWindow` is recorded rather than called, and
 * the test opens the page the service worker asked for.
 */

/** The service worker's globals these tests use: test files are type checked against the DOM lib, which lacks them. */
interface SwScope {
  registration: ServiceWorkerRegistration;
  clients: { openWindow(url: string | URL): Promise<unknown> };
  dispatchEvent(event: Event): boolean;
  opened: string[];
}
declare const NotificationEvent: new (type: string, init: { notification: Notification; action?: string }) => Event;
declare const ExtendableMessageEvent: new (type: string, init: { data: unknown }) => Event;

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  actions: string[];
}

/** The context's service worker whose version is the activated one, if any. */
async function activatedWorker(context: BrowserContext): Promise<Worker | undefined> {
  for (const candidate of context.serviceWorkers()) {
    const state = await candidate.evaluate(() => (self as unknown as { serviceWorker?: { state: string } }).serviceWorker?.state).catch(() => undefined);
    if (state === 'activated') return candidate;
  }
  return undefined;
}

async function serviceWorkerInControl(page: Page, context: BrowserContext): Promise<Worker> {
  await pageUnderControl(page);
  // The activated one: a context can also list a version that went redundant (an install Chromium gave up and retried).
  await expect.poll(async () => (await activatedWorker(context)) !== undefined).toBe(true);
  const worker = await activatedWorker(context);
  expect(worker).toBeDefined();
  await worker!.evaluate(() => {
    const sw = self as unknown as SwScope;
    sw.opened = [];
    sw.clients.openWindow = async (url: string | URL) => {
      sw.opened.push(String(url));
      return null;
    };
  });
  return worker!;
}

function notifications(worker: Worker): Promise<ShownNotification[]> {
  return worker.evaluate(async () =>
    (await (self as unknown as SwScope).registration.getNotifications()).map((n: Notification) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      actions: ((n as Notification & { actions?: { title: string }[] }).actions ?? []).map((a) => a.title),
    })),
  );
}

/** A card's notification as the service worker shows it (tests show it directly, or again, as another device's might be). */
/** As the service worker shows a card's notification: its Approve bound to the hash of the card's decision view (decision-view.ts). */
async function showCardNotification(worker: Worker, title: string, card: { pausePointId: string; conversationId: string }) {
  const pause = (await storedPausePoint(worker, card.pausePointId)) as unknown as PausePoint;
  const data = { ...card, viewHash: viewHash(decisionView({ pause })) };
  await worker.evaluate(
    async ({ title, data }) => {
      await (self as unknown as SwScope).registration.showNotification(`Approval needed: ${title}`, { tag: data.pausePointId, data });
    },
    { title, data },
  );
}

/** What a page posts when a card became pending while it was hidden. */
async function reportPending(worker: Worker, pausePointId: string) {
  await worker.evaluate((id) => {
    self.dispatchEvent(new ExtendableMessageEvent('message', { data: { type: 'pausepoint:approval-pending', pausePointId: id } }));
  }, pausePointId);
}

/** A tap on one of the notification's actions, as the browser dispatches it. */
async function clickAction(worker: Worker, tag: string, action: 'approve' | 'decline') {
  await worker.evaluate(
    async ({ tag, action }) => {
      const sw = self as unknown as SwScope;
      const [notification] = await sw.registration.getNotifications({ tag });
      if (!notification) throw new Error(`No notification tagged ${tag}`);
      sw.dispatchEvent(new NotificationEvent('notificationclick', { notification, action }));
    },
    { tag, action },
  );
}

function storedPausePoint(worker: Worker, id: string): Promise<{ status: string; resolution: unknown; decidedBy?: { tabId: string; label: string } }> {
  return worker.evaluate(
    (id) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('pausepoint');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('pausePoints').objectStore('pausePoints').get(id);
          read.onsuccess = () => {
            open.result.close();
            resolve(read.result);
          };
          read.onerror = () => reject(read.error);
        };
      }),
    id,
  );
}

async function pendingCard(page: Page, title: string) {
  const approval = card(page, title);
  await expect(approval).toBeVisible();
  const pausePointId = (await approval.getAttribute('data-pause-point'))!;
  const conversationId = decodeURIComponent(/#\/c\/([^/]+)/.exec(page.url())![1]!);
  return { pausePointId, conversationId };
}

// The service worker shows the notifications and answers their actions (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

test.beforeEach(async ({ context }) => {
  await context.grantPermissions(['notifications']);
});

test('with every tab closed: Approve on the notification decides the card in storage, the app it opens resumes the loop once, and a second action decides nothing', async ({ context, page, llm }) => {
  llm.enqueue(waitCall({ title: 'Send the report', description: 'Email the Q3 report to **4** board members.' }), { content: 'Report sent.' });
  await setUpEndpoint(page, llm);
  const worker = await serviceWorkerInControl(page, context);
  await send(page, 'send the report');
  const { pausePointId, conversationId } = await pendingCard(page, 'Send the report');

  // While a tab is visible, a reported card shows no notification.
  await reportPending(worker, pausePointId);
  await page.waitForTimeout(300);
  expect(await notifications(worker)).toEqual([]);

  await page.close();
  await reportPending(worker, pausePointId);
  await expect.poll(() => notifications(worker)).toEqual([
    { title: 'Approval needed: Send the report', body: 'Risk: Unknown effect · Email the Q3 report to 4 board members.', tag: pausePointId, actions: ['Approve', 'Decline'] },
  ]);

  await clickAction(worker, pausePointId, 'approve');
  await expect.poll(() => storedPausePoint(worker, pausePointId)).toMatchObject({ status: 'resolved', resolution: 'approve', decidedBy: { tabId: 'service-worker' } });
  await expect.poll(() => notifications(worker)).toEqual([]);
  // No tab was open: the service worker opens the app on the conversation, whose worker resumes the loop.
  // Polled: it opens the window after closing the notification and updating the badge.
  const expected = [new URL(`/#/c/${encodeURIComponent(conversationId)}`, page.url()).href];
  await expect.poll(() => worker.evaluate(() => (self as unknown as SwScope).opened)).toEqual(expected);
  const opened = expected;
  const app = await context.newPage();
  await app.goto(opened[0]!);
  await expect(app.getByText('Report sent.')).toBeVisible({ timeout: 20_000 });
  expect(llm.chatRequests()).toHaveLength(2);
  expect(llm.chatRequests()[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Approval approval: approve' });

  // A second action on the same card (its notification shown again, as another device's might be) decides nothing and says so.
  await showCardNotification(worker, 'Send the report', { pausePointId, conversationId });
  await clickAction(worker, pausePointId, 'decline');
  await expect.poll(() => notifications(worker)).toEqual([
    { title: 'Already decided: Send the report', body: 'This was decided elsewhere first; your answer changed nothing.', tag: `${pausePointId}:outcome`, actions: [] },
  ]);
  expect(await storedPausePoint(worker, pausePointId)).toMatchObject({ status: 'resolved', resolution: 'approve' });
  await app.waitForTimeout(3_500);
  expect(llm.chatRequests()).toHaveLength(2);

  // The audit log lists the notification's decision like any other, once.
  await app.getByRole('link', { name: 'Audit log' }).click();
  await expect(app.locator('#main').getByText('Send the report', { exact: true })).toHaveCount(1);
  await expect(app.locator('#main').getByText(/from a notification/)).toBeVisible();
});

test('with a tab open: Decline on the notification decides the card, the open tab resumes the loop once and shows the decision', async ({ context, page, llm }) => {
  llm.enqueue(waitCall({ title: 'Delete the drafts', description: 'Removes **12** drafts.' }), { content: 'Kept the drafts.' });
  await setUpEndpoint(page, llm);
  const worker = await serviceWorkerInControl(page, context);
  await send(page, 'delete the drafts');
  const { pausePointId, conversationId } = await pendingCard(page, 'Delete the drafts');

  // As the service worker shows it when no tab is visible (the tab here stays visible).
  await showCardNotification(worker, 'Delete the drafts', { pausePointId, conversationId });
  await clickAction(worker, pausePointId, 'decline');
  await expect.poll(() => storedPausePoint(worker, pausePointId)).toMatchObject({ status: 'resolved', resolution: 'decline' });
  await expect(page.getByText('Kept the drafts.')).toBeVisible({ timeout: 20_000 });
  await expect(card(page, 'Delete the drafts').getByText('Declined', { exact: true })).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(2);
  expect(llm.chatRequests()[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Approval approval: decline' });
  expect(await worker.evaluate(() => (self as unknown as SwScope).opened)).toEqual([]);

  await showCardNotification(worker, 'Delete the drafts', { pausePointId, conversationId });
  await clickAction(worker, pausePointId, 'approve');
  await expect.poll(async () => (await notifications(worker)).map((n) => n.title)).toEqual(['Already decided: Delete the drafts']);
  expect(await storedPausePoint(worker, pausePointId)).toMatchObject({ resolution: 'decline' });
  await page.waitForTimeout(3_500);
  expect(llm.chatRequests()).toHaveLength(2);
});

test('a card decided in a tab closes its notification; a card that needs input has no actions and its tap opens the card', async ({ context, page, llm }) => {
  llm.enqueue(
    waitCall({ title: 'Publish the post', description: 'Goes live at once.' }, 'call_publish'),
    { content: 'Published.' },
    waitCall({ title: 'Pick a slot', description: 'Two are free.', options: ['Monday', 'Friday'] }, 'call_slot'),
  );
  await setUpEndpoint(page, llm);
  const worker = await serviceWorkerInControl(page, context);
  await send(page, 'publish the post');
  const publish = await pendingCard(page, 'Publish the post');
  await showCardNotification(worker, 'Publish the post', publish);
  await card(page, 'Publish the post').getByRole('button', { name: 'Approve' }).click();
  await expect.poll(() => notifications(worker)).toEqual([]);
  await expect(page.getByText('Published.')).toBeVisible();

  await send(page, 'book a slot');
  const slot = await pendingCard(page, 'Pick a slot');
  await page.getByRole('link', { name: 'Settings' }).click();
  const other = await context.newPage();
  await page.close();
  await other.close();
  await reportPending(worker, slot.pausePointId);
  await expect.poll(() => notifications(worker)).toEqual([
    { title: 'Approval needed: Pick a slot', body: 'Unknown effect: Two are free. Tap to answer in the app.', tag: slot.pausePointId, actions: [] },
  ]);
  await worker.evaluate(async (tag) => {
    const sw = self as unknown as SwScope;
    const [notification] = await sw.registration.getNotifications({ tag });
    sw.dispatchEvent(new NotificationEvent('notificationclick', { notification: notification! }));
  }, slot.pausePointId);
  await expect
    .poll(() => worker.evaluate(() => (self as unknown as SwScope).opened))
    .toEqual([expect.stringContaining(`#/c/${encodeURIComponent(slot.conversationId)}/card/${encodeURIComponent(slot.pausePointId)}`)]);
  expect(await storedPausePoint(worker, slot.pausePointId)).toMatchObject({ status: 'pending' });
});

test('point 9: Approve only on a notification that renders the card’s whole decision view; a longer one opens the card, and an Approve sent to it anyway decides nothing', async ({ context, page, llm }) => {
  // The short card: the model's own question, its description and payload whole in four lines. The long one: a POST,
  // whose card describes the request at length (method, URL, headers, body, what it does), more than a notification shows.
  const ask = { id: 'call_short', name: 'wait_for_approval', arguments: { title: 'Order one', description: 'Order **one** box.', payload: { qty: 1 } } };
  const post = { id: 'call_long', name: 'http_request', arguments: { method: 'POST', url: 'https://mail.example.com/send', body: 'to=all' } };
  // Two conversations: a model's question pauses its turn before any later call of it is asked about.
  llm.enqueue({ toolCalls: [ask] }, { toolCalls: [post] });
  await setUpEndpoint(page, llm);
  const worker = await serviceWorkerInControl(page, context);
  await send(page, 'order one');
  const short = await pendingCard(page, 'Order one');
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'tell everyone');
  const long = await pendingCard(page, 'POST to mail.example.com');
  await page.getByRole('link', { name: 'Settings' }).click();
  const other = await context.newPage();
  await page.close();
  await other.close();
  await reportPending(worker, short.pausePointId);
  await reportPending(worker, long.pausePointId);
  await expect.poll(async () => (await notifications(worker)).length).toBe(2);
  const [shown, longShown] = [short, long].map(({ pausePointId }) => notifications(worker).then((all) => all.find((n) => n.tag === pausePointId)));
  expect(await shown).toEqual({
    title: 'Approval needed: Order one',
    body: 'Risk: Unknown effect · Order one box.\nqty: 1',
    tag: short.pausePointId,
    actions: ['Approve', 'Decline'],
  });
  expect(await longShown).toMatchObject({ tag: long.pausePointId, actions: [], body: expect.stringContaining('Tap to answer in the app.') });

  // An Approve the notification never offered (an older build's, or a forged event): refused, and the app opens on the card.
  await clickAction(worker, long.pausePointId, 'approve');
  await expect
    .poll(() => worker.evaluate(() => (self as unknown as SwScope).opened))
    .toEqual([expect.stringContaining(`#/c/${encodeURIComponent(long.conversationId)}/card/${encodeURIComponent(long.pausePointId)}`)]);
  expect(await storedPausePoint(worker, long.pausePointId)).toMatchObject({ status: 'pending' });
  expect(await storedPausePoint(worker, short.pausePointId)).toMatchObject({ status: 'pending' });
});
