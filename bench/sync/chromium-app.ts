import type { Browser, Page } from '@playwright/test';
import { launchChromium } from '../ui/browser.ts';
import { appBuild, startPreview } from '../ui/preview-server.ts';

/** A fresh production build served by `vite preview`, and one Chromium for bench:sync's browser rows (each row makes its own profiles). */
export interface ChromiumApp {
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

/** `prebuilt`: serve that build instead of making one (an A/B of two builds). */
export async function startChromiumApp(prebuilt?: string): Promise<ChromiumApp> {
  const build = await appBuild(prebuilt, 'bench-sync');
  const preview = await startPreview(build.dir);
  const browser = await launchChromium();
  return {
    origin: preview.origin,
    browser,
    async close() {
      await browser.close();
      await preview.stop();
      await build.remove();
    },
  };
}

/** Opens a pairing link on `page` and fills the Join dialog, as a person would; returns the dialog, Join not yet pressed. */
export async function fillJoin(page: Page, link: string, code: string, deviceName: string) {
  await page.goto(link);
  const join = page.getByRole('dialog', { name: 'Join' });
  await join.getByLabel('Pairing code').fill(code);
  await join.getByLabel("This device's name").fill(deviceName);
  return join;
}
