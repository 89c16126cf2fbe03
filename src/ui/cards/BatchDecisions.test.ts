// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, test } from 'vitest';
import type { PausePoint } from '../../engine/records/index.ts';
import { fakeContext, pausePoint } from '../testing/fake-app.svelte.ts';
import BatchDecisions from './BatchDecisions.svelte';

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

  test('Approve all opens a dialog listing every card it will decide: title, tool, the arguments that matter, the risk label', async () => {
    renderBar([invoice, question, cleanup]);
    await fireEvent.click(await screen.findByRole('button', { name: 'Approve all' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve all 2 requests?' });
    const items = within(within(dialog).getByRole('list', { name: 'Requests to approve' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Pay the invoice');
    expect(items[0]!.textContent).toContain('http_request');
    expect(items[0]!.textContent).toContain('https://pay.example/invoices/7');
    expect(items[0]!.textContent).toContain('POST');
    // An HTTP call's body is on its card; the list names method and URL.
    expect(items[0]!.textContent).not.toContain('amount');
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
    expect(client.decideBatch).toHaveBeenCalledWith(['p1', 'p2'], { type: 'approve' });
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
    expect(client.decideBatch).toHaveBeenCalledWith(['p1', 'p2'], { type: 'decline', reason: 'Not today' });
    expect((await within(dialog).findByRole('status')).textContent).toContain('Declined 2 of 2.');
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
