import type { Page } from '@playwright/test';
import { API_KEYS_KEY } from '../../src/storage/api-keys.ts';
import { ENDPOINT_HEADERS_KEY } from '../../src/storage/custom-headers.ts';
import { SETTINGS_KEY } from '../../src/storage/settings-constants.ts';
import { setUpEndpoint, setUpEndpointThroughUi } from './app.ts';
import { expect, test } from './fixtures.ts';

interface ProbeWindow {
  probe: { db: { settings: { toArray(): Promise<{ key: string; value: unknown }[]> } } };
}

/** The rows a settings save writes (settings-repo.ts: saveSettings), read through the probe page (same origin, same database). */
async function storedSettings(page: Page) {
  await page.goto('/tests/e2e/probe/worker-probe.html');
  await expect(page.locator('body[data-ready="true"]')).toBeAttached();
  const rows = await page.evaluate(() => (window as unknown as ProbeWindow).probe.db.settings.toArray());
  // Not the rows the app writes for itself on opening (its device id is random in each browser).
  return rows.filter((row) => [SETTINGS_KEY, API_KEYS_KEY, ENDPOINT_HEADERS_KEY].includes(row.key));
}

// Most specs set the model up by seeding storage (app.ts: setUpEndpoint), not through the setup screen:
// that is only a short cut while it writes exactly what the screen's Save writes.
test('the seeded model set-up stores exactly what the setup screen’s Save stores', async ({ browser, llm }) => {
  const throughUi = await browser.newPage();
  const seeded = await browser.newPage();
  try {
    await setUpEndpointThroughUi(throughUi, llm);
    await setUpEndpoint(seeded, llm);
    const [fromUi, fromSeed] = [await storedSettings(throughUi), await storedSettings(seeded)];
    expect(fromUi.map((row) => row.key)).toEqual([API_KEYS_KEY, ENDPOINT_HEADERS_KEY, SETTINGS_KEY]);
    expect(fromSeed).toEqual(fromUi);
  } finally {
    await throughUi.close();
    await seeded.close();
  }
});
