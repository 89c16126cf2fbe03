import { send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations } from './page-checks.ts';

/**
 * Search conversations as a person uses it: a word from an older
 * conversation, typed in the sidebar's search field, finds it with the word
 * marked; opening the result lands on that message, scrolled into view,
 * however far up it is. At a phone's width and a laptop's, axe clean.
 */
const LONG_ANSWER = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1} of a long answer about something else entirely.`).join('\n\n');

for (const { width, height, narrow } of [
  { width: 390, height: 844, narrow: true },
  { width: 1280, height: 800, narrow: false },
]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('a word from an older conversation finds it, marked, and opens it scrolled to the match', async ({ page, llm }) => {
      llm.enqueue(
        { content: 'They are in the blue folder.' },
        { content: LONG_ANSWER },
        { content: LONG_ANSWER },
        { content: LONG_ANSWER },
        { content: 'Lisbon in May, then.' },
      );
      await setUpEndpoint(page, llm);
      await send(page, 'Where did I put the Zeppelin tickets?');
      await expect(page.getByText('They are in the blue folder.')).toBeVisible();
      for (const text of ['Tell me more', 'And more', 'Once more']) {
        await send(page, text);
        await expect(page.getByText('Paragraph 12 of a long answer')).toHaveCount(['Tell me more', 'And more', 'Once more'].indexOf(text) + 1);
      }
      const older = page.url();
      if (narrow) await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await page.getByRole('button', { name: 'New chat' }).click();
      await send(page, 'plan the trip');
      await expect(page.getByText('Lisbon in May, then.')).toBeVisible();

      if (narrow) await page.getByRole('button', { name: 'Menu', exact: true }).click();
      else await page.keyboard.press('Control+K');
      const field = page.getByRole('searchbox', { name: 'Search conversations' });
      if (!narrow) await expect(field).toBeFocused();
      // Typed as people type: lower case, no diacritics to worry about, and only the start of the word.
      await field.fill('zeppel');
      const results = page.getByRole('list', { name: 'Search results' });
      const result = results.getByRole('link', { name: /Where did I put the Zeppelin tickets/ });
      await expect(result).toBeVisible();
      await expect(result.locator('mark')).toHaveText('Zeppelin');
      await expect(results.getByRole('link')).toHaveCount(1);
      await expect(page.getByRole('status').filter({ hasText: 'found' })).toHaveText('1 conversation found');
      await expectNoSeriousViolations(page);

      if (narrow) {
        await field.press('Enter');
      } else {
        await result.click();
      }
      await expect(page).toHaveURL(new RegExp(`${older.split('#')[1]!.replace(/[/]/g, '\\/')}/message/`));
      const match = page.getByRole('region', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Where did I put the Zeppelin tickets?' });
      await expect(match).toBeInViewport();
      await expect(match).toBeFocused();
      // The newest answer, at the bottom where the conversation would otherwise open, is out of view.
      await expect(page.getByText('Paragraph 12 of a long answer').last()).not.toBeInViewport();
      await expectNoSeriousViolations(page);
    });
  });
}

test('a second tab searches the index the first built, finds a message written after it, and opens the result at it', async ({ page, context, llm }) => {
  llm.enqueue({ content: 'The Zeppelin tickets are in the blue folder.' }, { content: 'Noted: the harbour ferry leaves at nine.' });
  await setUpEndpoint(page, llm);
  await send(page, 'Where did I put the Zeppelin tickets?');
  await expect(page.getByText('The Zeppelin tickets are in the blue folder.')).toBeVisible();
  const first = page.url();
  // The first tab builds the stored index (its search field's focus asks for it) and searches it.
  const field = page.getByRole('searchbox', { name: 'Search conversations' });
  await field.fill('zeppelin');
  await expect(page.getByRole('list', { name: 'Search results' }).getByRole('link')).toHaveCount(1);
  await field.fill('');

  // Written after the index was built: indexed as it is written, whichever tab reads it.
  await send(page, 'Remember the harbour ferry');
  await expect(page.getByText('Noted: the harbour ferry leaves at nine.')).toBeVisible();

  const other = await context.newPage();
  await other.goto('/');
  const otherField = other.getByRole('searchbox', { name: 'Search conversations' });
  await otherField.fill('ferry nine');
  const results = other.getByRole('list', { name: 'Search results' });
  const result = results.getByRole('link', { name: /harbour ferry leaves at nine/ });
  await expect(result).toBeVisible();
  await expect(result.locator('mark')).toHaveText(['ferry', 'nine']);
  await expect(other.getByRole('status').filter({ hasText: 'found' })).toHaveText('1 conversation found');
  await result.click();
  await expect(other).toHaveURL(new RegExp(`${first.split('#')[1]!.replace(/[/]/g, '\\/')}/message/`));
  const match = other.getByRole('region', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Noted: the harbour ferry leaves at nine.' });
  await expect(match).toBeFocused();
});
