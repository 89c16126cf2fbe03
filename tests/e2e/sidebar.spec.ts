import { send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';

test('conversations: newest first, search by title, rename, and delete with confirmation, surviving a reload', async ({ page, llm }) => {
  llm.enqueue({ content: 'First answer.' }, { content: 'Second answer.' });
  await setUpEndpoint(page, llm);
  await send(page, 'groceries for the week');
  await expect(page.getByText('First answer.')).toBeVisible();
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'plan the trip');
  await expect(page.getByText('Second answer.')).toBeVisible();

  const nav = page.getByRole('navigation').first();
  const titles = nav.getByRole('link').filter({ hasText: /groceries|trip/ });
  await expect(titles).toHaveText([/plan the trip/, /groceries for the week/]);

  // Search replaced the title filter: the start of a title, or any part of it, still finds it.
  await nav.getByRole('searchbox', { name: 'Search conversations' }).fill('rocer');
  await expect(nav.getByRole('list', { name: 'Search results' }).getByRole('link')).toHaveText([/groceries for the week/]);
  await nav.getByRole('searchbox', { name: 'Search conversations' }).fill('');
  await expect(titles).toHaveText([/plan the trip/, /groceries for the week/]);

  await nav.getByRole('button', { name: 'Rename plan the trip', exact: true }).click();
  await nav.getByLabel('New title for plan the trip').fill('Lisbon trip');
  await nav.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(nav.getByRole('link', { name: 'Lisbon trip' })).toBeVisible();

  await nav.getByRole('button', { name: 'Delete groceries for the week', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /Delete “groceries for the week”\?/ });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(nav.getByRole('link', { name: /groceries/ })).toBeVisible();
  await nav.getByRole('button', { name: 'Delete groceries for the week', exact: true }).click();
  await dialog.getByRole('button', { name: 'Delete conversation' }).click();
  await expect(nav.getByRole('link', { name: /groceries/ })).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('navigation').first().getByRole('link', { name: 'Lisbon trip' })).toBeVisible();
  await expect(page.getByRole('navigation').first().getByRole('link', { name: /groceries/ })).toHaveCount(0);
});
