import type { Page } from '@playwright/test';
import { messageText } from '../fake-llm/index.ts';
import { send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations } from './page-checks.ts';

/**
 * Versions as a person meets them (issue 27): `Regenerate` asks the model
 * again from the same history and keeps the earlier answer as a version;
 * `Edit` on an earlier message starts a new version from it, and `Previous
 * version` / `Next version` go back and forth without asking the model or
 * running anything. At a phone's width and a laptop's, axe clean.
 */
const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });

for (const { width, height } of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('Regenerate asks again with the same history, and both answers stay reachable', async ({ page, llm }) => {
      llm.enqueue({ content: 'Octopuses have three hearts.' }, { content: 'Honey never spoils.' });
      await setUpEndpoint(page, llm);
      await send(page, 'Tell me a fact');
      await expect(messages(page).getByText('Octopuses have three hearts.')).toBeVisible();

      await messages(page).getByRole('button', { name: 'Regenerate' }).click();
      await expect(messages(page).getByText('Honey never spoils.')).toBeVisible();
      await expect(messages(page).getByText('Octopuses have three hearts.')).toHaveCount(0);
      const [first, second] = await llm.waitForChatRequests(2);
      expect(second!.body.messages).toEqual(first!.body.messages);
      expect(second!.body.messages.map((m) => messageText(m)).at(-1)).toBe('Tell me a fact');

      const versions = messages(page).getByRole('group', { name: 'Version 2 of 2' });
      await expect(versions).toContainText('2 of 2');
      await expect(versions.getByRole('button', { name: 'Next version' })).toBeDisabled();
      await expectNoSeriousViolations(page);

      await versions.getByRole('button', { name: 'Previous version' }).click();
      await expect(messages(page).getByText('Octopuses have three hearts.')).toBeVisible();
      await expect(messages(page).getByText('Honey never spoils.')).toHaveCount(0);
      const original = messages(page).getByRole('group', { name: 'Version 1 of 2' });
      await expect(original.getByRole('button', { name: 'Previous version' })).toBeDisabled();
      await original.getByRole('button', { name: 'Next version' }).click();
      await expect(messages(page).getByText('Honey never spoils.')).toBeVisible();
      // Switching asked the model nothing.
      expect(llm.chatRequests()).toHaveLength(2);

      // The edit form, in place of the message: labelled, axe clean, and Escape leaves it with focus back on Edit.
      await messages(page).getByRole('button', { name: 'Edit', exact: true }).click();
      const box = messages(page).getByRole('textbox', { name: 'Edit message' });
      await expect(box).toBeFocused();
      await expect(box).toHaveValue('Tell me a fact');
      await expect(messages(page).getByRole('button', { name: 'Cancel' })).toBeVisible();
      await expectNoSeriousViolations(page);
      await page.keyboard.press('Escape');
      await expect(box).toHaveCount(0);
      await expect(messages(page).getByRole('button', { name: 'Edit', exact: true })).toBeFocused();
      await expect(messages(page).getByText('Tell me a fact')).toBeVisible();
    });
  });
}

test('Edit an earlier message and Send: the model gets the edited text, the old version is kept, through a reload', async ({ page, llm }) => {
  llm.enqueue({ content: 'Paris.' }, { content: 'About two million.' }, { content: 'Rome.' });
  await setUpEndpoint(page, llm);
  await send(page, 'Capital of France?');
  await expect(messages(page).getByText('Paris.')).toBeVisible();
  await send(page, 'How many people live there?');
  await expect(messages(page).getByText('About two million.')).toBeVisible();

  await messages(page).getByRole('listitem').filter({ hasText: 'Capital of France?' }).getByRole('button', { name: 'Edit', exact: true }).click();
  await messages(page).getByRole('textbox', { name: 'Edit message' }).fill('Capital of Italy?');
  await messages(page).getByRole('button', { name: 'Send', exact: true }).click();
  await expect(messages(page).getByText('Rome.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();

  const asked = (await llm.waitForChatRequests(3))[2]!.body.messages.map((m) => messageText(m));
  expect(asked.at(-1)).toBe('Capital of Italy?');
  expect(asked.join('\n')).not.toMatch(/France|Paris|two million/);
  await expect(messages(page).getByText('Paris.')).toHaveCount(0);
  await expect(messages(page).getByText('How many people live there?')).toHaveCount(0);

  // Versions are stored records: a reload shows the same version, and the earlier one is still there.
  await page.reload();
  await expect(messages(page).getByText('Rome.')).toBeVisible();
  const versions = messages(page).getByRole('group', { name: 'Version 2 of 2' });
  await versions.getByRole('button', { name: 'Previous version' }).click();
  await expect(messages(page).getByText('Capital of France?')).toBeVisible();
  await expect(messages(page).getByText('Paris.')).toBeVisible();
  await expect(messages(page).getByText('About two million.')).toBeVisible();
  await expect(messages(page).getByText('Rome.')).toHaveCount(0);
  await expect(messages(page).getByRole('group', { name: 'Version 1 of 2' })).toContainText('1 of 2');
  expect(llm.chatRequests()).toHaveLength(3);
});
