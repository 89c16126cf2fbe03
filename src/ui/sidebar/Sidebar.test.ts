// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, test } from 'vitest';
import type { Conversation } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import Sidebar from './Sidebar.svelte';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

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

/** Stores the conversations, renders the sidebar over them and waits for the first of them to be listed. */
async function renderSidebar(conversations: Conversation[], pendingCount = 0) {
  await db.conversations.bulkPut(conversations);
  const fake = fakeContext({ db });
  render(Sidebar, { props: { pendingCount, route: { view: 'new' } }, context: fake.context });
  const newest = conversations.toSorted((a, b) => b.updatedAt - a.updatedAt)[0];
  if (newest) await screen.findByRole('link', { name: newest.title });
  return fake;
}

const listedTitles = () => within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('link').map((a) => a.textContent?.trim());

describe('Sidebar', () => {
  test('lists conversations newest first and shows the pending count on Approvals', async () => {
    await renderSidebar([conversation('a', 'Invoices', 1), conversation('b', 'Trip to Oslo', 2)], 3);
    expect(listedTitles()).toEqual(['Trip to Oslo', 'Invoices']);
    expect(screen.getByRole('link', { name: /Approvals/ }).textContent).toMatch(/3/);
    expect(screen.getByRole('button', { name: 'New chat' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Audit log' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Settings' })).toBeTruthy();
  });

  test('filters by title', async () => {
    await renderSidebar([conversation('b', 'Trip to Oslo', 2), conversation('a', 'Invoices', 1)]);
    const filter = screen.getByRole('searchbox', { name: 'Filter conversations' });
    await fireEvent.input(filter, { target: { value: 'osl' } });
    await waitFor(() => expect(listedTitles()).toEqual(['Trip to Oslo']));
    await fireEvent.input(filter, { target: { value: 'nothing like it' } });
    expect(await screen.findByText('No conversation matches.')).toBeTruthy();
  });

  test('lists the 50 most recent, and 50 more on request', async () => {
    await renderSidebar(Array.from({ length: 120 }, (_, i) => conversation(`c${i}`, `Chat ${i}`, i)));
    // A screenful first, the rest of the page after the paint.
    expect(listedTitles()).toHaveLength(20);
    expect(listedTitles()[0]).toBe('Chat 119');
    await waitFor(() => expect(listedTitles()).toHaveLength(50));
    await fireEvent.click(screen.getByRole('button', { name: 'Show more conversations (70 more)' }));
    await waitFor(() => expect(listedTitles()).toHaveLength(100));
    expect(listedTitles()[99]).toBe('Chat 20');
    await fireEvent.click(screen.getByRole('button', { name: 'Show more conversations (20 more)' }));
    await waitFor(() => expect(listedTitles()).toHaveLength(120));
    expect(screen.queryByRole('button', { name: /Show more conversations/ })).toBeNull();
  });

  test('a conversation written elsewhere shows up at the top', async () => {
    await renderSidebar([conversation('a', 'Invoices', 1)]);
    await db.conversations.put(conversation('b', 'Written by the worker', 5));
    await waitFor(() => expect(listedTitles()).toEqual(['Written by the worker', 'Invoices']));
  });

  test('renames with Enter', async () => {
    const { client } = await renderSidebar([conversation('a', 'Invoices', 1)]);
    await fireEvent.click(screen.getByRole('button', { name: 'Rename Invoices' }));
    // The form loads on demand (RenameForm.svelte), with the old title selected for typing over.
    const input = await screen.findByRole<HTMLInputElement>('textbox', { name: 'New title for Invoices' });
    await waitFor(() => expect([input.selectionStart, input.selectionEnd]).toEqual([0, 'Invoices'.length]));
    await fireEvent.input(input, { target: { value: 'Q3 invoices' } });
    await fireEvent.submit(input.closest('form')!);
    expect(client.renameConversation).toHaveBeenCalledWith('a', 'Q3 invoices');
  });

  test('Escape leaves the title as it was and gives focus back to Rename', async () => {
    const { client } = await renderSidebar([conversation('a', 'Invoices', 1)]);
    await fireEvent.click(screen.getByRole('button', { name: 'Rename Invoices' }));
    const input = await screen.findByRole('textbox', { name: 'New title for Invoices' });
    await fireEvent.input(input, { target: { value: 'Something else' } });
    await fireEvent.keyDown(input, { key: 'Escape' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename Invoices' })));
    expect(screen.queryByRole('textbox', { name: 'New title for Invoices' })).toBeNull();
    expect(client.renameConversation).not.toHaveBeenCalled();
  });

  test('deletes only after confirmation', async () => {
    const { client } = await renderSidebar([conversation('a', 'Invoices', 1)]);
    await fireEvent.click(screen.getByRole('button', { name: 'Delete Invoices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Invoices”?' });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(client.deleteConversation).not.toHaveBeenCalled();

    await fireEvent.click(screen.getByRole('button', { name: 'Delete Invoices' }));
    await fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete conversation' }));
    expect(client.deleteConversation).toHaveBeenCalledWith('a');
  });
});
