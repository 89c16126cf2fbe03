import type { Locator, Page } from '@playwright/test';
import { card, send, setUpEndpoint, waitCall } from './app.ts';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, expectNoSidewaysScroll } from './page-checks.ts';

/** Fully inside the viewport, and at least 44 px high (a touch target). */
async function expectOnScreenTouchTarget(page: Page, target: Locator) {
  const box = await target.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box).not.toBeNull();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
}

/** Every visible button and navigation link in `scope` is at least 44 px high. */
async function expectTouchTargets(scope: Locator) {
  const small = await scope.evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>('button, .nav-links a, .conversation-item a, select')]
      .filter((el) => el.getClientRects().length > 0 && el.getBoundingClientRect().height < 44)
      .map((el) => `${el.textContent?.trim() || el.getAttribute('aria-label')}: ${el.getBoundingClientRect().height}px`),
  );
  expect(small).toEqual([]);
}

// Long enough that, without the sticky action row, the buttons sit far below the card's top.
const LONG_DESCRIPTION = Array.from({ length: 40 }, (_, i) => `${i + 1}. Line ${i + 1} of what this launch will do.`).join('\n');

test.describe('at 390×844 on a touch phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the sidebar is a drawer behind Menu; a conversation opened from it shows its card’s Approve on screen, and tapping it resumes the loop', async ({ page, llm }) => {
    llm.enqueue(waitCall({ title: 'Launch the site', description: LONG_DESCRIPTION }), { content: 'The site is live.' });
    await setUpEndpoint(page, llm);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    await send(page, 'launch the site');
    await expect(card(page, 'Launch the site')).toBeVisible();

    // Focus moves into the drawer and back; Escape closes it.
    await menu.tap();
    const drawer = page.getByRole('navigation', { name: 'Main' });
    await expect(drawer).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    // The rest of the app is inert behind the open drawer.
    await expect(page.locator('#main')).toHaveAttribute('inert');
    await expect(drawer.getByRole('button', { name: 'New chat' })).toBeFocused();
    await expectNoSeriousViolations(page);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();

    // Away to a new chat, then back to the conversation through the drawer.
    await menu.tap();
    await drawer.getByRole('button', { name: 'New chat' }).tap();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { name: 'New chat' })).toBeVisible();
    await menu.tap();
    await drawer.getByRole('link', { name: /launch the site/ }).tap();
    await expect(drawer).toBeHidden();

    const approval = card(page, 'Launch the site');
    await expect(approval).toBeVisible();
    // The card's top is in view (it was opened at its start), its buttons held on screen by the sticky row.
    await approval.getByRole('heading', { name: 'Launch the site' }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
    const approve = approval.getByRole('button', { name: 'Approve' });
    await expectOnScreenTouchTarget(page, approve);
    await expectTouchTargets(page.locator('#app'));
    await expectNoSidewaysScroll(page);
    await expectNoSeriousViolations(page);

    await approve.tap();
    await expect(page.getByText('The site is live.')).toBeVisible();
    const requests = await llm.waitForChatRequests(2);
    expect(requests[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Approval approval: approve' });
  });

  test('the Approvals inbox and the Audit log work at that width: a card decided from the inbox', async ({ page, llm }) => {
    llm.enqueue(waitCall({ title: 'Pay the invoice', description: 'Pay **€120** to Acme.' }), { content: 'Not paid.' });
    await setUpEndpoint(page, llm);
    await send(page, 'pay the invoice');
    await expect(card(page, 'Pay the invoice')).toBeVisible();

    await page.getByRole('button', { name: 'Menu', exact: true }).tap();
    await page.getByRole('link', { name: /Approvals/ }).tap();
    await expect(page.getByRole('heading', { name: 'Approvals' })).toBeVisible();
    const inboxCard = card(page, 'Pay the invoice');
    await inboxCard.getByLabel('Reason').fill('not this month');
    const decline = inboxCard.getByRole('button', { name: 'Decline' });
    await expectOnScreenTouchTarget(page, decline);
    await expectTouchTargets(page.locator('#app'));
    await expectNoSidewaysScroll(page);
    await expectNoSeriousViolations(page);
    await decline.tap();
    const requests = await llm.waitForChatRequests(2);
    expect(requests[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Approval approval: decline - not this month' });
    await expect(page.getByText('Nothing is waiting for you.')).toBeVisible();

    await page.getByRole('button', { name: 'Menu', exact: true }).tap();
    await page.getByRole('link', { name: 'Audit log' }).tap();
    await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
    await expect(page.locator('#main').getByText('Pay the invoice', { exact: true }).first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoSeriousViolations(page);
  });
});

test.describe('at 1280×800 on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the sidebar stays beside the conversation, with no Menu button', async ({ page, llm }) => {
    llm.enqueue(waitCall({ title: 'Launch the site', description: 'Publish **3** pages.' }), { content: 'Live.' });
    await setUpEndpoint(page, llm);
    await send(page, 'launch the site');
    const approval = card(page, 'Launch the site');
    await expect(approval).toBeVisible();
    await expect(page.getByRole('button', { name: 'Menu', exact: true })).toHaveCount(0);
    const sidebar = await page.getByRole('navigation', { name: 'Main' }).boundingBox();
    const main = await page.locator('#main').boundingBox();
    expect(sidebar!.x).toBe(0);
    expect(sidebar!.height).toBeGreaterThan(700);
    expect(main!.x).toBeGreaterThanOrEqual(sidebar!.width - 1);
    expect(main!.width).toBeGreaterThan(900);
    const approve = await approval.getByRole('button', { name: 'Approve' }).boundingBox();
    expect(approve!.y + approve!.height).toBeLessThanOrEqual(800);
    await expectNoSidewaysScroll(page);
    await expectNoSeriousViolations(page);
  });
});
