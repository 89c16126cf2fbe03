import type { Locator, Page } from '@playwright/test';
import { card, send, setUpEndpoint, waitCall } from './app.ts';
import { expect, test } from './fixtures.ts';

/** Presses Tab (or Shift+Tab) until `target` has focus, as a keyboard user would (at most `max` presses). */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 30 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

test('Next pending approval jumps to the oldest pending card from any view, and cards and the inbox are decided by keyboard alone', async ({ page, llm }) => {
  llm.enqueue(
    waitCall({ title: 'Book the venue', description: 'Deposit **€500**.' }, 'call_venue'),
    waitCall({ title: 'Order the catering', description: 'For **40** people.' }, 'call_catering'),
    { content: 'Venue booked.' },
    { content: 'Catering ordered.' },
  );
  await setUpEndpoint(page, llm);
  await send(page, 'book the venue');
  await expect(card(page, 'Book the venue')).toBeVisible();
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'order the catering');
  await expect(card(page, 'Order the catering')).toBeVisible();

  // From Settings, by keyboard: the oldest card (in the other conversation) opens, focused.
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
  const next = page.getByRole('button', { name: 'Next pending approval' });
  await tabTo(page, next, { backwards: true });
  await page.keyboard.press('Enter');
  const venue = card(page, 'Book the venue');
  await expect(venue).toBeFocused();
  await tabTo(page, venue.getByRole('button', { name: 'Approve' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Venue booked.')).toBeVisible();
  expect(llm.chatRequests().at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Approval approval: approve' });

  // From the Audit log: now the catering card is the oldest pending one.
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await next.focus();
  await page.keyboard.press('Enter');
  await expect(card(page, 'Order the catering')).toBeFocused();

  // The inbox, by keyboard: its card's Decline, with a reason typed in.
  await page.getByRole('link', { name: /Approvals/ }).focus();
  await page.keyboard.press('Enter');
  const inboxCard = card(page, 'Order the catering');
  await tabTo(page, inboxCard.getByLabel('Reason'));
  await page.keyboard.type('too many');
  await tabTo(page, inboxCard.getByRole('button', { name: 'Decline' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Nothing is waiting for you.')).toBeVisible();
  await expect.poll(() => llm.chatRequests().at(-1)?.body.messages.at(-1)).toEqual({ role: 'user', content: 'Approval approval: decline - too many' });

  // With nothing pending, the control says so.
  await next.click();
  await expect(page.getByText('Nothing is waiting for your approval.')).toBeAttached();
});
