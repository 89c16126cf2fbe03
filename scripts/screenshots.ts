/**
 * `npm run screenshots`: the README's pictures, made only by this script so that
 * they never go stale. It builds the app (or serves SCREENSHOTS_DIST, an existing
 * build), starts the fake model server the tests use, and drives real Chromium
 * through one scripted conversation per picture: set the model, ask for something
 * consequential, see the card; then decide it and open the audit log.
 *
 * Writes docs/images/<picture>-<scheme>.png (or into SCREENSHOTS_OUT) for each
 * picture and colour scheme (the app follows prefers-color-scheme), and prints
 * each file's size. scripts/check-screenshots.mjs checks them against the README.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { launchChromium } from '../bench/ui/browser.ts';
import { setUpEndpoint } from '../bench/latency/set-up-endpoint.ts';
import { appBuild, startPreview } from '../bench/ui/preview-server.ts';
import { startFakeLlm, type FakeLlm } from '../tests/fake-llm/index.ts';
import { PICTURES, SCHEMES, type Picture } from './screenshot-list.mjs';

/** SCREENSHOTS_OUT: where to write instead (the test suite checks a fresh set without touching the committed one). */
const OUT_DIR = resolve(process.env.SCREENSHOTS_OUT ?? 'docs/images');
const API_KEY = 'sk-screenshots';
const CARD_TITLE = 'Pay invoice INV-2041';

async function main(): Promise<void> {
  const prebuilt = process.env.SCREENSHOTS_DIST ? resolve(process.env.SCREENSHOTS_DIST) : undefined;
  const build = await appBuild(prebuilt, 'screenshots', () => console.log('Building the app…'));
  const preview = await startPreview(build.dir);
  const llm = await startFakeLlm();
  const browser = await launchChromium();
  try {
    await mkdir(OUT_DIR, { recursive: true });
    for (const picture of PICTURES) await shoot(browser, preview.origin, llm, picture);
  } finally {
    await browser.close();
    await llm.close();
    await preview.stop();
    await build.remove();
  }
}

/**
 * One picture in every colour scheme: one conversation, then the page's prefers-color-scheme switched
 * between the shots (the app follows it live), rather than a conversation per scheme.
 */
async function shoot(browser: Browser, origin: string, llm: FakeLlm, picture: Picture): Promise<void> {
  const context = await browser.newContext({
    baseURL: origin,
    viewport: { width: picture.width, height: picture.height },
    isMobile: picture.width < 600,
    hasTouch: picture.width < 600,
    colorScheme: SCHEMES[0],
    reducedMotion: 'reduce',
    // The first visit's service worker would precache the whole app (5.7 MB) while the pictures are taken: they
    // show nothing of it (its "ready to work offline" note is not what they are about).
    serviceWorkers: 'block',
  });
  try {
    const page = await context.newPage();
    llm.reset();
    await askForPayment(page, llm);
    if (picture.name === 'audit-log') {
      await approveAndOpenAuditLog(page);
    } else {
      // The card from its title down, as a person arriving at it sees it.
      await page.getByRole('region', { name: CARD_TITLE, exact: true }).evaluate((card) => card.scrollIntoView({ block: 'start' }));
    }
    // Caret and focus rings blink or move: a still picture shows neither.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      const file = join(OUT_DIR, `${picture.name}-${scheme}.png`);
      await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
      console.log(`${file}: ${((await stat(file)).size / 1024).toFixed(1)} kB`);
    }
  } finally {
    await context.close();
  }
}

/** The five-minute tour's first half: a model set up on the first screen, a request, and the card it raises. */
async function askForPayment(page: Page, llm: FakeLlm): Promise<void> {
  llm.enqueue(
    {
      content: 'I found the invoice. Paying it moves money, so I will ask you first.',
      toolCalls: [
        {
          id: 'call_pay',
          name: 'wait_for_approval',
          arguments: {
            title: CARD_TITLE,
            description: 'Pay **€1,240.00** to Northwind Supplies for March deliveries, from the business account ending 0871.',
            payload: { payee: 'Northwind Supplies', amount: 1240, currency: 'EUR', reference: 'INV-2041' },
          },
        },
      ],
    },
    { content: 'Paid: Northwind Supplies received €1,240.00 (reference INV-2041).' },
  );
  await setUpEndpoint(page, llm, API_KEY, 'gpt-5-mini');
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill('Pay the Northwind invoice that came in this morning');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('region', { name: CARD_TITLE, exact: true }).getByRole('button', { name: 'Approve' }).waitFor({ timeout: 20_000 });
}

async function approveAndOpenAuditLog(page: Page): Promise<void> {
  const card = page.getByRole('region', { name: CARD_TITLE, exact: true });
  // A key press decides only a card that has been on screen a moment; a click is a person's choice at once.
  await card.getByRole('button', { name: 'Approve' }).click();
  await page.getByText('Paid: Northwind Supplies').waitFor({ timeout: 20_000 });
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByRole('heading', { name: 'Audit log' }).waitFor();
  await page.getByText(CARD_TITLE).first().waitFor();
}

await main();
