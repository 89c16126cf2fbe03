import type { BrowserContext, Page } from '@playwright/test';
import type { FakeLlm } from '../../tests/fake-llm/index.ts';
import type { PouchdbServer } from '../../tests/couch/pouchdb-server.ts';
import { newProfile } from '../ui/browser.ts';
import { setUpEndpoint } from '../latency/set-up-endpoint.ts';
import { fillJoin, type ChromiumApp } from './chromium-app.ts';

/** A passphrase strong enough for the Turn on sync form's strength check: four random words. */
export const BENCH_PASSPHRASE = 'lantern quarry velvet osmosis';

export interface PairedProfiles {
  laptopContext: BrowserContext;
  phoneContext: BrowserContext;
  /** The laptop's page: its model set up, sync on, on Settings. */
  laptop: Page;
  /** The phone's page, joined; closing it leaves the phone paired with nothing of it running. */
  phone: Page;
}

export interface PairOptions {
  database: string;
  user: { username: string; password: string };
  apiKey: string;
  /** Run in both profiles before the app's scripts (a bench's frame stamps). */
  initScript?: () => void;
}

/**
 * Two Chromium profiles as the person's laptop and phone, paired as a person
 * pairs them: the laptop sets its model up and turns sync on in Settings ›
 * Devices, `Add a device` makes a link and code, and the phone opens the link
 * and fills the Join dialog. Shared by bench:sync's browser rows and bench:push's link row.
 */
export async function pairInChromium(app: ChromiumApp, server: PouchdbServer, llm: FakeLlm, options: PairOptions): Promise<PairedProfiles> {
  const { database, user, apiKey, initScript } = options;
  const [laptopContext, phoneContext] = await Promise.all([newProfile(app.browser, app.origin), newProfile(app.browser, app.origin)]);
  await server.createDatabase(database, user);
  if (initScript) for (const context of [laptopContext, phoneContext]) await context.addInitScript(initScript);
  const laptop = await laptopContext.newPage();
  await setUpEndpoint(laptop, llm, apiKey);
  await laptop.getByRole('link', { name: 'Settings' }).click();
  const devices = laptop.getByRole('region', { name: 'Devices' });
  await devices.getByLabel("This device's name").fill('Laptop');
  await devices.getByLabel('Sync server URL').fill(server.url);
  await devices.getByLabel('Database').fill(database);
  await devices.getByLabel('User name').fill(user.username);
  await devices.getByLabel('Password', { exact: true }).fill(user.password);
  await devices.getByLabel('Encryption passphrase').fill(BENCH_PASSPHRASE);
  await devices.getByLabel('Repeat passphrase').fill(BENCH_PASSPHRASE);
  await devices.getByRole('button', { name: 'Turn on sync' }).click();
  await devices.getByRole('button', { name: 'Add a device' }).click();
  const link = await devices.getByLabel('Pairing link').inputValue();
  const code = await devices.getByLabel('Pairing code').inputValue();
  const phone = await phoneContext.newPage();
  const join = await fillJoin(phone, link, code, 'Phone');
  await join.getByRole('button', { name: 'Join' }).click();
  await join.waitFor({ state: 'hidden', timeout: 30_000 });
  return { laptopContext, phoneContext, laptop, phone };
}
