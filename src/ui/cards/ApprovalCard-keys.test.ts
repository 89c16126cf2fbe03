// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { bound } from '../testing/bound-decision.ts';
import { pausePoint } from '../testing/fake-app.svelte.ts';
import { loadCardCode, renderCard } from '../testing/render-approval-card.ts';
import { KEYS_ARM_MS } from './card-keys.svelte.ts';

beforeAll(loadCardCode);

/** A decision is sent once the view hash's code has loaded (on demand) and the hash is made: with fake timers, waited for so. */
async function decisionSent() {
  await vi.dynamicImportSettled();
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** The card named `title`, focused as a person focuses it, once its keys work (it has been on screen for KEYS_ARM_MS). */
async function armedCard(title: string): Promise<HTMLElement> {
  const card = screen.getByRole('region', { name: title });
  card.focus();
  await vi.waitFor(() => expect(card.getAttribute('aria-keyshortcuts')).toBe('A D'));
  return card;
}

describe('ApprovalCard — risk label and keys', () => {
  test('shows the call’s risk label as a word; a record without one says Unknown effect', () => {
    renderCard(pausePoint({ risk: 'destructive' }));
    const card = screen.getByRole('region', { name: 'Send the newsletter' });
    expect(within(card).getByText('Destructive')).toBeTruthy();
    // The word is the label; a screen reader hears what it is a label of.
    expect(card.querySelector('.risk')?.textContent).toBe('Risk: Destructive');
  });

  test('an older record without a label says Unknown effect', () => {
    renderCard(pausePoint());
    expect(within(screen.getByRole('region', { name: 'Send the newsletter' })).getByText('Unknown effect')).toBeTruthy();
  });

  test('A on the focused card approves, as the Approve button does', async () => {
    const { client } = renderCard(pausePoint());
    const card = await armedCard('Send the newsletter');
    await fireEvent.keyDown(card, { key: 'a' });
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'approve' })));
  });

  test('keys typed into the Reason field are text, not shortcuts', async () => {
    const { client } = renderCard(pausePoint());
    await fireEvent.keyDown(screen.getByRole('textbox', { name: 'Reason' }), { key: 'a' });
    await fireEvent.keyDown(screen.getByRole('textbox', { name: 'Reason' }), { key: 'd' });
    expect(client.decide).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('D opens the decline with its reason; Decline there declines', async () => {
    const { client } = renderCard(pausePoint());
    await fireEvent.keyDown(await armedCard('Send the newsletter'), { key: 'D' });
    const dialog = await screen.findByRole('dialog', { name: 'Decline “Send the newsletter”?' });
    expect(client.decide).not.toHaveBeenCalled();
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Reason' }), { target: { value: 'Wrong list' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'decline', reason: 'Wrong list' })));
  });

  test('A does nothing on a card that is not a plain approval (a choice)', async () => {
    const { client } = renderCard(pausePoint({ kind: 'choice', options: ['Mon', 'Tue'] }));
    await fireEvent.keyDown(await armedCard('Send the newsletter'), { key: 'a' });
    expect(client.decide).not.toHaveBeenCalled();
  });
});

describe('A key press approves only what the person chose to focus (issue 32, point 2)', () => {
  afterEach(() => vi.useRealTimers());

  test('A within 500 ms of the card appearing does nothing; A on the focused card after 500 ms decides', async () => {
    vi.useFakeTimers();
    const { client } = renderCard(pausePoint());
    const card = screen.getByRole('region', { name: 'Send the newsletter' });
    card.focus();
    expect(card.getAttribute('aria-keyshortcuts')).toBeNull();
    await fireEvent.keyDown(card, { key: 'a' });
    await fireEvent.keyDown(card, { key: 'd' });
    vi.advanceTimersByTime(KEYS_ARM_MS - 1);
    await fireEvent.keyDown(card, { key: 'a' });
    expect(client.decide).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();

    vi.advanceTimersByTime(1);
    flushSync();
    expect(card.getAttribute('aria-keyshortcuts')).toBe('A D');
    await fireEvent.keyDown(card, { key: 'a' });
    await decisionSent();
    expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'approve' }));
  });

  test('a repeated key (held down) never decides, however long the card has been on screen', async () => {
    vi.useFakeTimers();
    const { client } = renderCard(pausePoint());
    const card = screen.getByRole('region', { name: 'Send the newsletter' });
    card.focus();
    vi.advanceTimersByTime(KEYS_ARM_MS * 4);
    await fireEvent.keyDown(card, { key: 'a', repeat: true });
    await fireEvent.keyDown(card, { key: 'd', repeat: true });
    expect(client.decide).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('a key that reaches the card while focus is elsewhere does nothing', async () => {
    vi.useFakeTimers();
    const { client } = renderCard(pausePoint());
    const card = screen.getByRole('region', { name: 'Send the newsletter' });
    vi.advanceTimersByTime(KEYS_ARM_MS);
    // Dispatched at the card, but the person never moved focus there.
    await fireEvent.keyDown(card, { key: 'a' });
    expect(client.decide).not.toHaveBeenCalled();
  });

  test('the half second starts again when the page comes back into view', async () => {
    vi.useFakeTimers();
    const { client } = renderCard(pausePoint());
    const card = screen.getByRole('region', { name: 'Send the newsletter' });
    card.focus();
    vi.advanceTimersByTime(KEYS_ARM_MS);
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    document.dispatchEvent(new Event('visibilitychange'));
    hidden.mockReturnValue(false);
    document.dispatchEvent(new Event('visibilitychange'));
    await fireEvent.keyDown(card, { key: 'a' });
    expect(client.decide).not.toHaveBeenCalled();
    vi.advanceTimersByTime(KEYS_ARM_MS);
    await fireEvent.keyDown(card, { key: 'a' });
    await decisionSent();
    expect(client.decide).toHaveBeenCalledOnce();
  });
});
