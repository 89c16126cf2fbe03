// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, test } from 'vitest';
import type { Conversation } from '../../engine/records/index.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import Sidebar from './Sidebar.svelte';

const conversation = (id: string, title: string, updatedAt: number): Conversation => ({
  v: 1,
  id,
  title,
  createdAt: 0,
  updatedAt,
  state: { kind: 'idle' },
  turns: 0,
  nextSeq: 0,
});

function renderSidebar(conversations: Conversation[], pendingCount = 0) {
  const fake = fakeContext();
  render(Sidebar, { props: { conversations, pendingCount, route: { view: 'new' } }, context: fake.context });
  return fake;
}

describe('Sidebar', () => {
  test('lists conversations as given (newest first) and shows the pending count on Approvals', () => {
    renderSidebar([conversation('b', 'Trip to Oslo', 2), conversation('a', 'Invoices', 1)], 3);
    const list = screen.getByRole('list', { name: 'Conversations' });
    expect(within(list).getAllByRole('link').map((a) => a.textContent?.trim())).toEqual(['Trip to Oslo', 'Invoices']);
    expect(screen.getByRole('link', { name: /Approvals/ }).textContent).toMatch(/3/);
    expect(screen.getByRole('button', { name: 'New chat' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Audit log' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Settings' })).toBeTruthy();
  });

  test('filters by title', async () => {
    renderSidebar([conversation('b', 'Trip to Oslo', 2), conversation('a', 'Invoices', 1)]);
    await fireEvent.input(screen.getByRole('searchbox', { name: 'Filter conversations' }), { target: { value: 'osl' } });
    const list = screen.getByRole('list', { name: 'Conversations' });
    expect(within(list).getAllByRole('link').map((a) => a.textContent?.trim())).toEqual(['Trip to Oslo']);
  });

  test('renames with Enter', async () => {
    const { client } = renderSidebar([conversation('a', 'Invoices', 1)]);
    await fireEvent.click(screen.getByRole('button', { name: 'Rename Invoices' }));
    const input = screen.getByRole('textbox', { name: 'New title for Invoices' });
    await fireEvent.input(input, { target: { value: 'Q3 invoices' } });
    await fireEvent.submit(input.closest('form')!);
    expect(client.renameConversation).toHaveBeenCalledWith('a', 'Q3 invoices');
  });

  test('deletes only after confirmation', async () => {
    const { client } = renderSidebar([conversation('a', 'Invoices', 1)]);
    await fireEvent.click(screen.getByRole('button', { name: 'Delete Invoices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Invoices”?' });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(client.deleteConversation).not.toHaveBeenCalled();

    await fireEvent.click(screen.getByRole('button', { name: 'Delete Invoices' }));
    await fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete conversation' }));
    expect(client.deleteConversation).toHaveBeenCalledWith('a');
  });
});
