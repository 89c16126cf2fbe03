import type { Page } from '@playwright/test';
import { setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, expectNoSidewaysScroll } from './page-checks.ts';

/**
 * Settings › Devices and the Join dialog as a person meets them, at a phone's
 * width and a laptop's, with no sync server: every field reachable by its
 * label, nothing axe calls serious, nothing wider than the screen.
 */
async function openDevices(page: Page, narrow: boolean) {
  if (narrow) await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('link', { name: 'Settings' }).click();
  const devices = page.getByRole('region', { name: 'Devices' });
  await expect(devices).toBeVisible();
  return devices;
}

for (const { width, height, narrow } of [
  { width: 390, height: 844, narrow: true },
  { width: 1280, height: 800, narrow: false },
]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('Settings › Devices: every field by its label, a mismatch said before anything is sent, and axe is clean', async ({ page, llm }) => {
      await setUpEndpoint(page, llm);
      const devices = await openDevices(page, narrow);
      await expect(devices.getByRole('heading', { name: 'Devices' })).toBeVisible();
      await expect(devices.getByLabel("This device's name")).toHaveValue(/ on /);
      await expect(devices.getByLabel('Database')).toHaveValue('pausepoint');
      await expect(devices.getByLabel('Sync server URL')).toHaveAttribute('placeholder', 'https://couch.example.com');
      await devices.getByLabel('Sync server URL').fill('https://couch.example.com');
      await devices.getByLabel('User name').fill('ada');
      await devices.getByLabel('Password', { exact: true }).fill('secret');
      await devices.getByLabel('Encryption passphrase').fill('correct horse battery staple');
      await devices.getByLabel('Repeat passphrase').fill('correct horse battery stable');
      await devices.getByLabel('Repeat passphrase').scrollIntoViewIfNeeded();
      await expectNoSeriousViolations(page);

      await devices.getByRole('button', { name: 'Turn on sync' }).click();
      await expect(devices.getByRole('alert')).toHaveText('The passphrases do not match.');
      await expect(devices.getByLabel('Repeat passphrase')).toHaveAttribute('aria-invalid', 'true');
      await expectNoSeriousViolations(page);
      await expectNoSidewaysScroll(page);
    });

    test('a pairing link opens Join, with the fragment gone from the address, and axe is clean', async ({ page }) => {
      await page.goto('/#pair=not-a-real-blob');
      const join = page.getByRole('dialog', { name: 'Join' });
      await expect(join).toBeVisible();
      expect(new URL(page.url()).hash).toBe('');
      await expect(join.getByLabel('Pairing code')).toBeFocused();
      await expect(join.getByLabel("This device's name")).toHaveValue(/ on /);
      await join.getByRole('button', { name: 'Join' }).click();
      await expect(join.getByRole('alert')).toHaveText('Type the pairing code shown on the other device.');
      await expectNoSeriousViolations(page);
      await expectNoSidewaysScroll(page);

      await join.getByRole('button', { name: 'Cancel' }).click();
      await expect(join).toBeHidden();
      await expect(page.getByRole('heading', { name: 'Connect a model' })).toBeVisible();
    });
  });
}

test('a pairing link opened in a tab that already shows the app opens Join, with no reload', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await expect(page.getByRole('region', { name: 'Devices' })).toBeVisible();
  // Only the fragment differs, so the browser does not load the page again: the marker survives.
  await page.evaluate(() => ((window as unknown as { sameTab: boolean }).sameTab = true));
  await page.goto('/#pair=not-a-real-blob');
  const join = page.getByRole('dialog', { name: 'Join' });
  await expect(join.getByLabel('Pairing code')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameTab?: boolean }).sameTab)).toBe(true);
  expect(new URL(page.url()).hash).toBe('');

  // A second link, after Cancel, in the same tab: Join again.
  await join.getByRole('button', { name: 'Cancel' }).click();
  await expect(join).toBeHidden();
  await page.evaluate(() => (window.location.hash = '#pair=another-blob'));
  await expect(join.getByLabel('Pairing code')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameTab?: boolean }).sameTab)).toBe(true);
});

test('the passphrase is measured as it is typed, and Suggest a passphrase fills in four words', async ({ page, llm }) => {
  await setUpEndpoint(page, llm);
  const devices = await openDevices(page, false);
  await devices.getByLabel('Encryption passphrase').fill('password1234');
  await expect(devices.getByRole('meter', { name: 'Passphrase strength' })).toBeVisible();
  await expect(devices.getByText(/^Too weak: one GPU offline guesses it in/)).toBeVisible();
  await devices.getByRole('button', { name: 'Suggest a passphrase' }).click();
  await expect(devices.getByText(/^Suggested: /)).toContainText('about 51.7 bits');
  const phrase = await devices.getByLabel('Encryption passphrase').inputValue();
  expect(phrase).toMatch(/^[a-z]+ [a-z]+ [a-z]+ [a-z]+$/);
  await expect(devices.getByLabel('Repeat passphrase')).toHaveValue(phrase);
  await expect(devices.getByText(/^Strong enough: one GPU offline needs/)).toBeVisible();
});
