import type { Page } from '@playwright/test';
import { startFakeLlm, type FakeLlm } from '../../tests/fake-llm/index.ts';
import type { PouchdbServer } from '../../tests/couch/pouchdb-server.ts';
import type { ChromiumApp } from './chromium-app.ts';
import { pairInChromium, type PairedProfiles } from './pair-in-chromium.ts';

/**
 * bench:sync's round-trip rows in Chromium: two profiles of real Chromium
 * over a fresh production build (chromium-app.ts) are two devices, paired through the Settings › Devices UI
 * and syncing through pouchdb-server. Each round, the laptop's model asks for
 * a card; times are epoch ms on `performance.timeOrigin + performance.now()`
 * in both pages and at the fake model server: one clock on one machine.
 *   - card on A → first frame of it on B;
 *   - press Approve on B → the continuation request from A at the model server;
 *   - press Approve on B → first frame of A's card saying B decided.
 */
const API_KEY = 'sk-bench-sync';

export interface BrowserRows {
  cardToOtherDevice: number[];
  pressToContinuation: number[];
  pressToDecidedOnOwner: number[];
}

/** Installed before the app's scripts: stamps the frame in which a text first shows inside a card. */
function installWatch(): void {
  const w = window as unknown as { __watch?: { text: string; shownAt?: number }; __press?: number };
  const now = () => performance.timeOrigin + performance.now();
  new MutationObserver(() => {
    const watch = w.__watch;
    if (!watch || watch.shownAt !== undefined) return;
    const found = [...document.querySelectorAll('[role="region"]')].some((region) => region.textContent?.includes(watch.text));
    if (!found) return;
    watch.shownAt = -1;
    // The frame showing it: the next animation frame, then the task after it.
    requestAnimationFrame(() => setTimeout(() => (watch.shownAt = now())));
  }).observe(document, { subtree: true, childList: true, characterData: true });
  addEventListener('click', (event) => (w.__press = performance.timeOrigin + event.timeStamp), { capture: true });
}

const watchFor = (page: Page, text: string) => page.evaluate((t) => ((window as unknown as { __watch: unknown }).__watch = { text: t }), text);
const shownAt = (page: Page) =>
  page.waitForFunction(() => {
    const at = (window as unknown as { __watch?: { shownAt?: number } }).__watch?.shownAt;
    return at !== undefined && at > 0 ? at : false;
  }, undefined, { timeout: 30_000 }).then((handle) => handle.jsonValue() as Promise<number>);
const pressAt = (page: Page) => page.evaluate(() => (window as unknown as { __press: number }).__press);

export async function browserRows(app: ChromiumApp, server: PouchdbServer, rounds: number, user: { username: string; password: string }): Promise<BrowserRows> {
  const llm: FakeLlm = await startFakeLlm({ requireKey: API_KEY });
  let paired: PairedProfiles | undefined;
  try {
    paired = await pairInChromium(app, server, llm, { database: 'bench-browser', user, apiKey: API_KEY, initScript: installWatch });
    const { laptop, phone } = paired;

    const rows: BrowserRows = { cardToOtherDevice: [], pressToContinuation: [], pressToDecidedOnOwner: [] };
    await laptop.getByRole('button', { name: 'New chat' }).click();
    for (let round = 0; round < rounds + 2; round++) {
      const title = `Send batch ${round}`;
      llm.enqueue({ toolCalls: [{ id: `call_${round}`, name: 'wait_for_approval', arguments: { title, description: `Sends batch **${round}**.` } }] }, { content: `Batch ${round} sent.` });
      await Promise.all([watchFor(laptop, title), watchFor(phone, title)]);
      await laptop.getByRole('textbox', { name: 'Message' }).fill(`send batch ${round}`);
      await laptop.getByRole('button', { name: 'Send', exact: true }).click();
      // The first round makes the conversation, which the phone then opens and keeps open.
      if (round === 0) {
        await shownAt(laptop);
        await phone.goto(laptop.url());
      }
      const [onLaptop, onPhone] = round === 0 ? [0, 0] : await Promise.all([shownAt(laptop), shownAt(phone)]);
      const phoneCard = phone.getByRole('region', { name: title, exact: true });
      await phoneCard.getByRole('button', { name: 'Approve' }).waitFor();
      const before = llm.chatRequests().length;
      await watchFor(laptop, 'Phone (by sync)');
      await new Promise((resolve) => setTimeout(resolve, 200));
      await phoneCard.getByRole('button', { name: 'Approve' }).click();
      const decidedOnLaptop = await shownAt(laptop);
      const pressed = await pressAt(phone);
      while (llm.chatRequests().length <= before) await new Promise((resolve) => setTimeout(resolve, 10));
      const request = llm.chatRequests()[before]!;
      await laptop.getByText(`Batch ${round} sent.`).waitFor({ timeout: 30_000 });
      // The first two rounds warm both sides up (JIT, the longpoll's first open, the phone's first view of the conversation).
      if (round < 2) continue;
      rows.cardToOtherDevice.push(onPhone - onLaptop);
      rows.pressToContinuation.push(request.receivedAt - pressed);
      rows.pressToDecidedOnOwner.push(decidedOnLaptop - pressed);
    }
    return rows;
  } finally {
    if (paired) await Promise.all([paired.laptopContext.close(), paired.phoneContext.close()]);
    await llm.close();
  }
}
