// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { beforeAll, describe, expect, test } from 'vitest';
import type { PausePoint } from '../../engine/records/index.ts';
import { TOOL_CHANGED } from '../../engine/card-warnings.ts';
import { decisionView } from '../../engine/decision-view.ts';
import { viewHash } from '../../engine/view-hash.ts';
import { fakeContext, pausePoint } from '../testing/fake-app.svelte.ts';
import BatchDecisions from './BatchDecisions.svelte';
import { unsentEdits } from './unsent-edits.svelte.ts';

const invoice = pausePoint({
  id: 'p1',
  title: 'Pay the invoice',
  origin: 'gate',
  toolName: 'http_request',
  payload: { method: 'POST', url: 'https://pay.example/invoices/7', body: '{"amount":120}' },
  risk: 'changes',
});
const cleanup = pausePoint({ id: 'p2', title: 'Delete note n1', origin: 'gate', toolName: 'delete_note', payload: { id: 'n1' }, risk: 'destructive' });
const question = pausePoint({ id: 'p3', title: 'Which day?', kind: 'choice', options: ['Mon', 'Tue'] });

// The bar and its dialog load on demand; here they are loaded once, before any test opens them (a cold transform
// of the dialog and the decision view took longer than findByRole waits on a loaded machine).
beforeAll(() => Promise.all([import('./BatchBar.svelte'), import('./BatchDialog.svelte')]));

function renderBar(pending: PausePoint[]) {
  const fake = fakeContext();
  const view = render(BatchDecisions, { props: { pending }, context: fake.context });
  return { ...fake, ...view };
}

describe('Approve all / Decline all', () => {
  test('are offered only for two or more pending plain approvals', async () => {
    renderBar([invoice, cleanup, question]);
    expect(await screen.findByRole('button', { name: 'Approve all' })).toBeTruthy();
    document.body.replaceChildren();
    renderBar([invoice, question]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Approve all' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Decline all' })).toBeNull();
  });

  test('Approve all opens a dialog listing every card it will decide: its whole decision view, the risk label', async () => {
    renderBar([invoice, question, cleanup]);
    await fireEvent.click(await screen.findByRole('button', { name: 'Approve all' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve all 2 requests?' });
    const items = within(within(dialog).getByRole('list', { name: 'Requests to approve' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Pay the invoice');
    expect(items[0]!.textContent).toContain('http_request');
    expect(items[0]!.textContent).toContain('https://pay.example/invoices/7');
    expect(items[0]!.textContent).toContain('POST');
    // The body too: the dialog shows what the card shows.
    expect(items[0]!.textContent).toContain('{\\"amount\\":120}');
    expect(within(items[0]!).getByText('Changes')).toBeTruthy();
    expect(items[1]!.textContent).toContain('delete_note');
    expect(within(items[1]!).getByText('Destructive')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Approve all' })).toBeTruthy();
    // The safe choice has focus.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
  });

  test('Approve all in the dialog decides each listed card and says what came of each', async () => {
    const { client } = renderBar([invoice, cleanup]);
    client.decideBatch.mockResolvedValueOnce({
      batchId: 'b1',
      cards: [
        { pausePointId: 'p1', result: { outcome: 'decided' } },
        { pausePointId: 'p2', result: { outcome: 'already_decided', status: 'resolved', decidedBy: { tabId: 't2', deviceId: 'd', label: 'Firefox on Linux' } } },
      ],
    });
    await fireEvent.click(await screen.findByRole('button', { name: 'Approve all' }));
    const dialog = await screen.findByRole('dialog');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Approve all' }));
    expect(client.decideBatch).toHaveBeenCalledWith(['p1', 'p2'], { type: 'approve' }, [invoice, cleanup].map((pause) => viewHash(decisionView({ pause }))));
    const status = await within(dialog).findByRole('status');
    expect(status.textContent).toContain('Approved 1 of 2.');
    expect(status.textContent).toContain('Skipped “Delete note n1”: it was decided elsewhere first (Firefox on Linux).');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('Decline all sends one reason for all', async () => {
    const { client } = renderBar([invoice, cleanup]);
    await fireEvent.click(await screen.findByRole('button', { name: 'Decline all' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline all 2 requests?' });
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Reason' }), { target: { value: ' Not today ' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Decline all' }));
    expect(client.decideBatch).toHaveBeenCalledWith(['p1', 'p2'], { type: 'decline', reason: 'Not today' }, [expect.any(String), expect.any(String)]);
    expect((await within(dialog).findByRole('status')).textContent).toContain('Declined 2 of 2.');
  });

  test('point 1: a batch with a long URL, a 5th argument and a tool-changed warning — Approve all shows all of it', async () => {
    const url = `https://pay.example/${'segment/'.repeat(40)}end?to=eve`;
    const long = pausePoint({
      id: 'p1',
      title: 'Pay Eve',
      origin: 'gate',
      toolName: 'pay',
      description: `${TOOL_CHANGED}\n\nPays someone.`,
      payload: { url, currency: 'EUR', memo: 'rent', account: 'main', amount: 9000 },
      risk: 'changes',
    });
    renderBar([long, cleanup]);
    await fireEvent.click(await screen.findByRole('button', { name: 'Approve all' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve all 2 requests?' });
    const [item] = within(within(dialog).getByRole('list', { name: 'Requests to approve' })).getAllByRole('listitem');
    // The whole URL, uncut; the fifth argument; the warning that the tool changed.
    expect(item!.textContent).toContain(JSON.stringify(url));
    expect(within(item!).getByText('amount').nextElementSibling?.textContent).toBe('9000');
    expect(item!.textContent).toContain('This tool changed since you allowed it.');
    expect(item!.textContent).not.toContain('…');
  });

  test('point 1: a card with an unsent edit is left out of Approve all with a note, never approved with its original payload', async () => {
    unsentEdits.set('p1', { method: 'POST', url: 'https://pay.example/invoices/8' });
    try {
      const { client } = renderBar([invoice, cleanup]);
      await fireEvent.click(await screen.findByRole('button', { name: 'Approve all' }));
      const dialog = await screen.findByRole('dialog', { name: 'Approve all 1 request?' });
      expect(within(dialog).getByRole('note').textContent).toContain('Left out: “Pay the invoice” has an edit you have not sent.');
      expect(within(within(dialog).getByRole('list', { name: 'Requests to approve' })).getAllByRole('listitem')).toHaveLength(1);
      await fireEvent.click(within(dialog).getByRole('button', { name: 'Approve all' }));
      expect(client.decideBatch).toHaveBeenCalledWith(['p2'], { type: 'approve' }, [viewHash(decisionView({ pause: cleanup }))]);
    } finally {
      unsentEdits.clear();
    }
  });

  test('Cancel decides nothing', async () => {
    const { client } = renderBar([invoice, cleanup]);
    await fireEvent.click(await screen.findByRole('button', { name: 'Approve all' }));
    const dialog = await screen.findByRole('dialog');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(client.decideBatch).not.toHaveBeenCalled();
  });

  test('a failure to send is shown, and nothing is claimed decided', async () => {
    const { client } = renderBar([invoice, cleanup]);
    client.decideBatch.mockRejectedValueOnce(new Error('The agent worker did not answer in time.'));
    await fireEvent.click(await screen.findByRole('button', { name: 'Approve all' }));
    const dialog = await screen.findByRole('dialog');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Approve all' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Your decisions were not sent: The agent worker did not answer in time.');
    expect(within(dialog).queryByRole('status')).toBeNull();
  });
});
