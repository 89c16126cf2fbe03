import type { Locator, Page } from '@playwright/test';
import type { FakeLlm } from '../fake-llm/index.ts';
import { card, send, setUpEndpoint } from './app.ts';
import { expect, test } from './fixtures.ts';

/** The requests that reached the sink at `path`, CORS preflights left out. */
const sent = (llm: FakeLlm, path: string) => llm.sinkHits(path).filter((hit) => hit.method !== 'OPTIONS');

/** Every element inside `container` whose right edge passes the container's (the pixel of rounding aside). */
async function overflowing(container: Locator): Promise<string[]> {
  return container.evaluate((root) => {
    const edge = root.getBoundingClientRect().right + 1;
    return [...root.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > edge)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${(el.textContent ?? '').slice(0, 40)}`);
  });
}

const LONG_URL = (llm: FakeLlm) => `${llm.origin}/sink/${'a1b2c3d4e5'.repeat(30)}?token=${'f'.repeat(120)}`;

async function twoPosts(page: Page, llm: FakeLlm) {
  llm.enqueue(
    {
      content: `I will post to ${LONG_URL(llm)} now.`,
      toolCalls: [
        { id: 'call_a', name: 'http_request', arguments: { method: 'POST', url: LONG_URL(llm), body: '{"amount":120}' } },
        { id: 'call_b', name: 'http_request', arguments: { method: 'POST', url: `${llm.origin}/sink/other`, body: '{"amount":5}' } },
      ],
    },
    { content: 'Done.' },
  );
  await setUpEndpoint(page, llm);
  await send(page, 'post both');
}

test('point 1: nothing runs off screen — no element of a card, of the message above it or of the Approve all dialog is wider than its column, at 1280 and 390 px', async ({ page, llm }) => {
  await twoPosts(page, llm);
  const host = new URL(llm.origin).host;
  const long = card(page, `POST to ${host}`).first();
  await expect(long).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    // Each card within its column (its parent), and everything in it within the card.
    for (const section of await page.locator('section[data-pause-point]').all()) {
      expect(await overflowing(section.locator('xpath=..'))).toEqual([]);
      expect(await overflowing(section)).toEqual([]);
    }
    // The assistant's message above the cards, with the same URL in its text.
    const bubble = page.locator('.message-item').filter({ hasText: 'I will post to' }).first();
    expect(await overflowing(bubble)).toEqual([]);

    await page.getByRole('button', { name: 'Approve all' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve all 2 requests?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(LONG_URL(llm));
    expect(await overflowing(dialog)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  }
});

test('point 1: a card whose payload is edited, then Approve all — the original payload is not sent', async ({ page, llm }) => {
  await twoPosts(page, llm);
  const host = new URL(llm.origin).host;
  const edited = card(page, `POST to ${host}`).filter({ hasText: '/sink/other' });
  await expect(edited).toBeVisible();
  const editor = edited.getByLabel('Payload');
  const text = await editor.inputValue();
  await editor.fill(text.replace('{\\"amount\\":5}', '{\\"amount\\":6}'));
  await expect(edited.getByText('Arguments as they will run (your edit)')).toBeVisible();

  await page.getByRole('button', { name: 'Approve all' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve all 1 request?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('note')).toContainText('has an edit you have not sent');
  await dialog.getByRole('button', { name: 'Approve all' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Approved 1 of 1.');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The other card ran; the edited one did not, with its proposal or at all, until it is approved on its own card.
  await expect.poll(() => sent(llm, `/sink/${'a1b2c3d4e5'.repeat(30)}`).length).toBe(1);
  expect(sent(llm, '/sink/other')).toEqual([]);
  await edited.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => sent(llm, '/sink/other').map((hit) => hit.body)).toEqual([{ amount: 6 }]);
});
