// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Conversation, DecidedBy, PausePoint } from '../../engine/records/index.ts';
import type { RemoteDecision } from '../../storage/records/sync-records.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { loadMarkdown } from '../markdown/markdown-renderer.svelte.ts';
import { loadCardView } from './decision-view-loader.svelte.ts';
import { fakeContext, pausePoint } from '../testing/fake-app.svelte.ts';
import ApprovalCard from './ApprovalCard.svelte';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));
// So is the decision view's code, as the first screen loads it before a card shows (first-screen.ts).
beforeAll(() => Promise.all([loadMarkdown(), loadCardView()]));

const PHONE: DecidedBy = { tabId: 'tab-1', deviceId: 'dev-phone', label: 'Chrome on Android' };
const LAPTOP: DecidedBy = { tabId: 'tab-laptop', deviceId: 'dev-laptop', label: 'Chromium on Linux' };
const ownedByLaptop: Conversation = {
  v: 1,
  id: 'c1',
  title: 'Newsletter',
  createdAt: 1,
  updatedAt: 1,
  state: { kind: 'paused', pending: 1 },
  turns: 1,
  nextSeq: 1,
  ownerDevice: { id: 'dev-laptop', name: 'Chromium on Linux' },
};

function claim(over: Partial<RemoteDecision>): RemoteDecision {
  return { v: 1, pausePointId: 'p1', conversationId: 'c1', state: 'queued', decision: { type: 'approve' }, decidedBy: PHONE, at: 1_700_000_050_000, ...over };
}

async function renderCard(pause: PausePoint, remote?: RemoteDecision) {
  await db.settings.put({ key: 'deviceId', value: 'dev-phone' });
  await db.conversations.put(ownedByLaptop);
  if (remote) await db.remoteDecisions.put(remote);
  const fake = fakeContext({ db });
  const view = render(ApprovalCard, { props: { pause }, context: fake.context });
  return { ...fake, ...view, card: screen.getByRole('region', { name: pause.title }) };
}

describe('ApprovalCard — a decision claimed through the sync server', () => {
  test('queued: Waiting for the sync server, as a status inside the card, and the buttons are disabled', async () => {
    const { card } = await renderCard(pausePoint());
    expect((within(card).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(false);

    await db.remoteDecisions.put(claim({ state: 'queued' }));
    await waitFor(() => expect(within(card).getByRole('status').textContent).toBe('Waiting for the sync server'));
    expect((within(card).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(card).getByRole('button', { name: 'Decline' }) as HTMLButtonElement).disabled).toBe(true);
  });

  test('lost: Decided on the winner first, with what it decided, and no buttons', async () => {
    const { card } = await renderCard(
      pausePoint(),
      claim({ state: 'lost', winner: { decision: { type: 'decline', reason: 'Not this week' }, decidedBy: LAPTOP } }),
    );
    expect(await within(card).findByText('Decided on Chromium on Linux first')).toBeTruthy();
    expect(within(card).getByText('Declined')).toBeTruthy();
    expect(within(card).getByText(/Not this week/)).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  test('lost, and the owner has applied the winner: the outcome as stored, and who was first', async () => {
    const { card } = await renderCard(
      pausePoint({ status: 'resolved', resolution: 'approve', resolvedAt: 1_700_000_100_000, decidedBy: { ...LAPTOP, via: 'sync' } }),
      claim({ state: 'lost', decision: { type: 'decline' }, winner: { decision: { type: 'approve' }, decidedBy: LAPTOP } }),
    );
    expect(await within(card).findByText('Decided on Chromium on Linux first')).toBeTruthy();
    expect(within(card).getAllByText('Approved')).toHaveLength(1);
  });

  test('won, on a conversation another device runs, still pending here: Sent to the owner', async () => {
    const { card } = await renderCard(pausePoint(), claim({ state: 'won' }));
    expect(await within(card).findByText('Sent to Chromium on Linux')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  test('won, but the owner decided first while offline: Not applied', async () => {
    const { card } = await renderCard(
      pausePoint({ status: 'resolved', resolution: 'decline', resolvedAt: 1_700_000_100_000, decidedBy: LAPTOP }),
      claim({ state: 'won' }),
    );
    expect(await within(card).findByText('Not applied: Chromium on Linux decided first while offline')).toBeTruthy();
    expect(within(card).getByText('Declined')).toBeTruthy();
    expect(within(card).queryByText('Sent to Chromium on Linux')).toBeNull();
  });

  test('won and applied as claimed: nothing more to say than the outcome', async () => {
    const { card } = await renderCard(
      pausePoint({ status: 'resolved', resolution: 'approve', resolvedAt: 1_700_000_100_000, decidedBy: { ...PHONE, tabId: 'laptop-owner', via: 'sync' } }),
      claim({ state: 'won' }),
    );
    await waitFor(() => expect(within(card).getByText(/Chrome on Android \(by sync\)/)).toBeTruthy());
    expect(within(card).queryByText(/Not applied|Sent to|first/)).toBeNull();
  });

  test('a card decided on another device through sync says so after its label', async () => {
    const { card } = await renderCard(
      pausePoint({ status: 'resolved', resolution: 'approve', resolvedAt: 1_700_000_100_000, decidedBy: { ...LAPTOP, via: 'sync' } }),
    );
    expect(within(card).getByText(/in Chromium on Linux \(by sync\)/)).toBeTruthy();
  });

  test('deciding a card while the claim is queued is not possible twice', async () => {
    const { card, client } = await renderCard(pausePoint(), claim({ state: 'queued' }));
    await waitFor(() => expect((within(card).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true));
    await fireEvent.click(within(card).getByRole('button', { name: 'Approve' }));
    expect(client.decide).not.toHaveBeenCalled();
  });
});
