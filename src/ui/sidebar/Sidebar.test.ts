// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, describe, expect, test } from 'vitest';
import type { Conversation, Message } from '../../engine/records/index.ts';
import { MemoryLocks } from '../../engine/testing/memory-locks.ts';
import { SearchService } from '../../search/search-service.ts';
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

const message = (id: string, conversationId: string, seq: number, content: string): Message => ({
  v: 1,
  id,
  conversationId,
  seq,
  createdAt: seq,
  role: 'user',
  content,
});

// The worker's search, over the test's database: what the sidebar asks through the client.
let search: SearchService | undefined;
afterEach(() => search?.close());

/** Stores the conversations, renders the sidebar over them and waits for the first of them to be listed. */
async function renderSidebar(conversations: Conversation[], pendingCount = 0) {
  await db.conversations.bulkPut(conversations);
  const fake = fakeContext({ db });
  search = new SearchService(db, new MemoryLocks());
  const service = search;
  fake.client.searchConversations.mockImplementation(async (query: string, limit: number) =>
    query.trim() ? service.search(query, limit) : (await service.warm(), { results: [], total: 0 }),
  );
  render(Sidebar, { props: { pendingCount, route: { view: 'new' } }, context: fake.context });
  const newest = conversations.toSorted((a, b) => b.updatedAt - a.updatedAt)[0];
  if (newest) await screen.findByRole('link', { name: newest.title });
  return fake;
}

const listedTitles = () => within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('link').map((a) => a.textContent?.trim());

/**
 * A first search loads the search modules and builds the stored index (IndexedDB, here fake-indexeddb):
 * well under a second alone, past testing-library's 1 s default while the whole suite loads both cores.
 */
const FIRST_SEARCH = { timeout: 10_000 };

describe('Sidebar', () => {
  test('lists conversations newest first and shows the pending count on Approvals', async () => {
    await renderSidebar([conversation('a', 'Invoices', 1), conversation('b', 'Trip to Oslo', 2)], 3);
    expect(listedTitles()).toEqual(['Trip to Oslo', 'Invoices']);
    expect(screen.getByRole('link', { name: /Approvals/ }).textContent).toMatch(/3/);
    expect(screen.getByRole('button', { name: 'New chat' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Audit log' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Settings' })).toBeTruthy();
  });

  test('Search conversations finds titles mid-word, as the filter it replaces did, and every title again once cleared', async () => {
    await renderSidebar([conversation('b', 'Trip to Oslo', 2), conversation('a', 'Invoices', 1)]);
    const field = screen.getByRole('searchbox', { name: 'Search conversations' });
    await fireEvent.input(field, { target: { value: 'SLO' } });
    const results = await screen.findByRole('list', { name: 'Search results' }, FIRST_SEARCH);
    await waitFor(() => expect(within(results).getAllByRole('link').map((a) => a.textContent?.trim())).toEqual(['Trip to Oslo']), FIRST_SEARCH);
    expect(within(results).getByText('slo', { selector: 'mark' })).toBeTruthy();
    // Found conversations can be renamed and deleted as listed ones can.
    expect(within(results).getByRole('button', { name: 'Rename Trip to Oslo' })).toBeTruthy();
    await fireEvent.input(field, { target: { value: 'nothing like it' } });
    expect(await screen.findByText('No conversation matches.')).toBeTruthy();
    await fireEvent.input(field, { target: { value: '' } });
    await waitFor(() => expect(listedTitles()).toEqual(['Trip to Oslo', 'Invoices']));
  });

  test('finds message text, newest first, with the match marked in text nodes, and Enter opens the first at its match', async () => {
    await db.messages.bulkPut([
      message('m1', 'a', 0, 'the <b>oat</b> milk, please'),
      message('m2', 'b', 0, 'Oat biscuits too'),
      message('m3', 'c', 0, 'nothing here'),
    ]);
    const { app } = await renderSidebar([conversation('a', 'Groceries', 1), conversation('b', 'Snacks', 3), conversation('c', 'Other', 2)]);
    const field = screen.getByRole('searchbox', { name: 'Search conversations' });
    await fireEvent.input(field, { target: { value: 'oat' } });
    const results = await screen.findByRole('list', { name: 'Search results' }, FIRST_SEARCH);
    await waitFor(() => expect(within(results).getAllByRole('link')).toHaveLength(2));
    const [first, second] = within(results).getAllByRole('link');
    expect(first!.textContent).toMatch(/^Snacks/);
    expect(second!.getAttribute('href')).toBe('#/c/a/message/m1');
    // The stored text is shown as text: its angle brackets are characters, not elements.
    const snippet = second!.querySelector('.search-snippet')!;
    expect(snippet.textContent).toBe('the <b>oat</b> milk, please');
    expect(snippet.querySelector('b')).toBeNull();
    expect([...snippet.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['oat']);
    expect(screen.getByRole('status').textContent).toBe('2 conversations found');

    await fireEvent.keyDown(field, { key: 'Enter' });
    expect(app.router.route).toEqual({ view: 'conversation', id: 'b', messageId: 'm2' });
  });

  test('Ctrl+K and Cmd+K focus the search field, whose focus has the worker get its index ready', async () => {
    const { client } = await renderSidebar([conversation('a', 'Invoices', 1)]);
    const field = screen.getByRole('searchbox', { name: 'Search conversations' });
    expect(document.activeElement).not.toBe(field);
    await fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
    expect(document.activeElement).toBe(field);
    field.blur();
    await fireEvent.keyDown(window, { key: 'K', metaKey: true });
    expect(document.activeElement).toBe(field);
    expect(client.searchConversations).toHaveBeenCalledWith('', 1);
    await Promise.all(client.searchConversations.mock.results.map((r) => r.value));
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
