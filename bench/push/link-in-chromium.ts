import type { ConsoleMessage, Page } from '@playwright/test';
import { startFakeLlm } from '../../tests/fake-llm/index.ts';
import type { FakeNtfy } from '../../tests/fake-ntfy/index.ts';
import type { PouchdbServer } from '../../tests/couch/pouchdb-server.ts';
import type { ChromiumApp } from '../sync/chromium-app.ts';
import { pairInChromium, type PairedProfiles } from '../sync/pair-in-chromium.ts';

/**
 * bench:push's second row, in real Chromium: the phone page opened on a
 * push's link → its card actionable. Two profiles of a production build are
 * the laptop and the phone, paired through pouchdb-server as a person pairs
 * them (bench/sync/pair-in-chromium.ts). Each round the phone has no page
 * open (nothing of it runs, as with the browser closed); the laptop's model
 * asks, the laptop pushes to the loopback ntfy, and once the card's document
 * is on the server the phone opens the push's `Click` link in a new page.
 * The figure is that page's navigation start → the first frame in which the
 * card's Approve is enabled, both on the page's own clock. Then Approve, and
 * the laptop's continuation, before the next round.
 */
const API_KEY = 'sk-bench-push';
// BENCH_PUSH_MARKS=1: prints each round's stamps (console.debug('PPMARK', name, epoch ms) in a diagnostic build).
const MARKS = process.env.BENCH_PUSH_MARKS === '1';

/** Installed before the app's scripts: stamps the frame in which the watched card's Approve is first enabled. */
function installActionableWatch(): void {
  const w = window as unknown as { __title?: string; __actionableAt?: number };
  const check = () => {
    // The title comes through sessionStorage, set by a page init script that may run after this one.
    w.__title ??= sessionStorage.getItem('bench-title') ?? undefined;
    if (w.__actionableAt !== undefined || !w.__title) return;
    // The card: a region named by its title (aria-labelledby), as the e2e tests find it.
    const region = [...document.querySelectorAll('[aria-labelledby]')].find((r) => document.getElementById(r.getAttribute('aria-labelledby')!)?.textContent?.trim() === w.__title);
    const approve = region && [...region.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Approve' && !b.disabled);
    if (!approve) return;
    w.__actionableAt = -1;
    requestAnimationFrame(() => setTimeout(() => (w.__actionableAt = performance.now())));
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

export async function linkToActionable(app: ChromiumApp, server: PouchdbServer, ntfy: FakeNtfy, rounds: number, user: { username: string; password: string }): Promise<number[]> {
  const llm = await startFakeLlm({ requireKey: API_KEY });
  let paired: PairedProfiles | undefined;
  try {
    paired = await pairInChromium(app, server, llm, { database: 'bench-push', user, apiKey: API_KEY, initScript: installActionableWatch });
    const { laptop, phone, phoneContext } = paired;
    await setUpPush(laptop, ntfy);
    await phone.close();
    await laptop.getByRole('button', { name: 'New chat' }).click();
    const times: number[] = [];
    for (let round = 0; round < rounds + 1; round++) {
      const title = `Pay invoice ${round}`;
      llm.enqueue({ toolCalls: [{ id: `call_${round}`, name: 'wait_for_approval', arguments: { title, description: `Pays invoice **${round}**.` } }] }, { content: `Invoice ${round} paid.` });
      const before = ntfy.published.length;
      await laptop.getByRole('textbox', { name: 'Message' }).fill(`pay invoice ${round}`);
      await laptop.getByRole('button', { name: 'Send', exact: true }).click();
      await laptop.getByRole('region', { name: title, exact: true }).waitFor();
      // The person walks away: the laptop's tab shows something else, so the push is not held back for it.
      await laptop.getByRole('link', { name: 'Settings' }).click();
      const publish = (await ntfy.waitForPublishes(before + 1))[before]!;
      // The card's document is on the server before the phone opens: the figure is the phone's, not the laptop's push.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const opened = await phoneContext.newPage();
      const marks = MARKS ? collectMarks(opened) : undefined;
      await opened.addInitScript((t) => sessionStorage.setItem('bench-title', t), title);
      await opened.goto(publish.click!);
      const at = await actionableAt(opened);
      // The first round warms the phone's profile up (its service worker, its first sync).
      if (round > 0) times.push(at);
      if (marks) await printMarks(opened, marks, at, round);
      const requests = llm.chatRequests().length;
      await opened.getByRole('region', { name: title, exact: true }).getByRole('button', { name: 'Approve' }).click();
      while (llm.chatRequests().length <= requests) await new Promise((resolve) => setTimeout(resolve, 20));
      await opened.close();
      await laptop.goBack();
      await laptop.getByText(`Invoice ${round} paid.`).waitFor({ timeout: 30_000 });
    }
    return times;
  } finally {
    if (paired) await Promise.all([paired.laptopContext.close(), paired.phoneContext.close()]);
    await llm.close();
  }
}

function actionableAt(page: Page): Promise<number> {
  return page
    .waitForFunction(() => {
      const at = (window as unknown as { __actionableAt?: number }).__actionableAt;
      return at !== undefined && at > 0 ? at : false;
    }, undefined, { timeout: 30_000 })
    .then((handle) => handle.jsonValue() as Promise<number>);
}

/** Push through Settings, as a person sets it up, with no wait before pushing. */
async function setUpPush(laptop: Page, ntfy: FakeNtfy): Promise<void> {
  await laptop.getByRole('link', { name: 'Settings' }).click();
  const push = laptop.getByRole('region', { name: 'Push notifications' });
  await push.getByLabel('Push server URL').fill(ntfy.url);
  await push.getByLabel('Wait before pushing (seconds)').fill('0');
  await push.getByRole('button', { name: 'Save' }).click();
  await push.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
}

/** Stamps a diagnostic build logs as console.debug('PPMARK', name, epoch ms), from the page and its workers. */
function collectMarks(page: Page): Map<string, number> {
  const marks = new Map<string, number>();
  // From the message's text ("PPMARK name epoch-ms"): a worker's last messages can come after its page closed, when its arguments can no longer be read.
  const take = (msg: ConsoleMessage) => {
    const [tag, name, at] = msg.text().split(' ');
    if (tag === 'PPMARK' && name && at && !marks.has(name)) marks.set(name, Number(at));
  };
  page.on('console', take);
  page.on('worker', (worker) => worker.on('console', take));
  return marks;
}

async function printMarks(page: Page, marks: Map<string, number>, actionable: number, round: number): Promise<void> {
  const origin = await page.evaluate(() => performance.timeOrigin);
  const rows = [...marks].map(([name, at]) => [name, at - origin] as const).sort((a, b) => a[1] - b[1]);
  console.log(`round ${round}: ${rows.map(([name, at]) => `${name} ${at.toFixed(0)}`).join(', ')}, actionable ${actionable.toFixed(0)}`);
}
