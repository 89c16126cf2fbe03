// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { PausePoint } from '../../engine/records/index.ts';
import { loadMarkdown } from '../markdown/markdown-renderer.svelte.ts';
import { loadCardView } from './decision-view-loader.svelte.ts';
import { fakeContext, pausePoint } from '../testing/fake-app.svelte.ts';
import { bound } from '../testing/bound-decision.ts';
import ApprovalCard from './ApprovalCard.svelte';
import { cardOutcome } from './card-outcome.ts';
import { linkToOpen } from './link-to-open.ts';

// So is the decision view's code, as the first screen loads it before a card shows (first-screen.ts).
beforeAll(() => Promise.all([loadMarkdown(), loadCardView()]));
afterEach(() => vi.restoreAllMocks());

/** An MCP server's URL-elicitation card, as the hub stores it. */
const linkCard = (openUrl: string): PausePoint =>
  pausePoint({ origin: 'elicitation', kind: 'approval', title: 'Everything asks you to open a link', payload: { openUrl }, toolName: 'everything__link' });

function renderCard(pause: PausePoint) {
  const fake = fakeContext();
  render(ApprovalCard, { props: { pause }, context: fake.context });
  return { ...fake, card: screen.getByRole('region', { name: pause.title }) };
}

describe('a server’s link to open', () => {
  test('shows the whole link with its host emphasised, and offers Open link instead of Approve and a payload editor', () => {
    const { card } = renderCard(linkCard('https://auth.example.com/start?session=42#top'));
    const code = card.querySelector('.link-to-open code')!;
    expect(code.textContent).toBe('https://auth.example.com/start?session=42#top');
    expect(within(card).getByText('auth.example.com').tagName).toBe('STRONG');
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(card).queryByRole('textbox', { name: /payload/i })).toBeNull();
    expect(within(card).getByRole('button', { name: 'Open link' })).toBeTruthy();
  });

  test('nothing opens until Open link is pressed; then it opens without opener or referrer, and accepts', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { client, card } = renderCard(linkCard('https://auth.example.com/start'));
    expect(open).not.toHaveBeenCalled();
    await fireEvent.click(within(card).getByRole('button', { name: 'Open link' }));
    expect(open).toHaveBeenCalledWith('https://auth.example.com/start', '_blank', 'noopener,noreferrer');
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'approve' })));
  });

  test('Decline opens nothing', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { client, card } = renderCard(linkCard('https://auth.example.com/start'));
    await fireEvent.click(within(card).getByRole('button', { name: 'Decline' }));
    expect(open).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'decline' })));
  });

  test('only an http(s) link on a server’s card is a link to open; a user part stays visible before the host', () => {
    expect(linkToOpen(linkCard('javascript:alert(1)'))).toBeNull();
    expect(linkToOpen(linkCard('data:text/html,hi'))).toBeNull();
    expect(linkToOpen({ ...linkCard('https://x.test/'), origin: 'gate' })).toBeNull();
    expect(linkToOpen(linkCard('https://bank.test@evil.test:8443/a'))).toEqual({
      href: 'https://bank.test@evil.test:8443/a',
      before: 'https://bank.test@',
      host: 'evil.test:8443',
      after: '/a',
    });
  });

  test('once opened, the card says the link was opened, not just approved', () => {
    expect(cardOutcome({ ...linkCard('https://x.test/'), status: 'resolved', resolution: 'approve' })).toEqual({ label: 'Opened the link', tone: 'approved' });
    expect(cardOutcome({ ...linkCard('https://x.test/'), status: 'resolved', resolution: 'decline' })).toMatchObject({ label: 'Declined' });
  });
});
