import type { Locator } from '@playwright/test';
import { card, setUpEndpoint, waitCall } from './app.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 32, point 2: a key press approves only what the person chose to focus. A card
 * that appears never takes the focus, its keys work only once it has been on screen
 * for half a second (its `aria-keyshortcuts` says when), and a held key never decides.
 */

/** A card's A and D work: it has been on screen long enough (CardKeys). */
const keysWork = (approval: Locator) => expect(approval).toHaveAttribute('aria-keyshortcuts', 'A D');

test('typing a message right after a card appears leaves the card pending, and the text is in the message box', async ({ page, llm }) => {
  llm.enqueue(waitCall({ title: 'Book the venue', description: 'Deposit **€500**.' }));
  await setUpEndpoint(page, llm);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('book the venue');
  // Enter sends and leaves the empty box focused, ready for the next thought.
  await box.press('Enter');
  const venue = card(page, 'Book the venue');
  await expect(venue.getByRole('button', { name: 'Approve' })).toBeVisible();
  await page.keyboard.type('also');
  await expect(box).toHaveValue('also');
  await expect(box).toBeFocused();
  await expect(page.getByText('Approval needed: Book the venue')).toBeAttached();
  // Once its keys work, they are still the card's only if the person moves there.
  await keysWork(venue);
  await page.keyboard.type(' ask about parking');
  await expect(box).toHaveValue('also ask about parking');
  await expect(venue.getByRole('button', { name: 'Approve' })).toBeVisible();
  expect(llm.chatRequests()).toHaveLength(1);
});

test('A held down across a wait_for_approval approval leaves the gate card that appears right after pending', async ({ page, llm }) => {
  const host = new URL(llm.origin).host;
  llm.enqueue(waitCall({ title: 'Order the catering', description: 'For **40** people.' }), {
    toolCalls: [{ id: 'call_post', name: 'http_request', arguments: { method: 'POST', url: `${llm.origin}/sink/orders`, body: '{"people":40}' } }],
  });
  await setUpEndpoint(page, llm);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('order the catering');
  await box.press('Enter');
  const catering = card(page, 'Order the catering');
  await expect(catering).toBeVisible();
  await expect(catering).not.toBeFocused();
  // A click moves to it, and once its keys work A decides it.
  await catering.getByRole('heading').click();
  await expect(catering).toBeFocused();
  await keysWork(catering);
  await page.keyboard.down('a');
  await expect(catering.getByText('Approved', { exact: true })).toBeVisible();

  // The key stays down: each further `down` is a repeat, as the browser sends while a key is held.
  const gate = card(page, `POST to ${host}`);
  await expect(gate).toBeVisible();
  await expect(gate).not.toBeFocused();
  for (let i = 0; i < 5; i++) await page.keyboard.down('a');
  await keysWork(gate);
  await gate.getByRole('heading').click();
  await expect(gate).toBeFocused();
  for (let i = 0; i < 5; i++) await page.keyboard.down('a');
  await page.keyboard.up('a');
  await expect(gate.getByRole('button', { name: 'Approve' })).toBeVisible();
  expect(llm.sinkHits('/sink/orders').filter((hit) => hit.method !== 'OPTIONS')).toHaveLength(0);
  expect(llm.chatRequests()).toHaveLength(2);
});
