// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import type { Conversation, Message } from '../../engine/records/index.ts';
import { loadMarkdown } from '../markdown/markdown-renderer.svelte.ts';
import { loadCardView } from '../cards/decision-view-loader.svelte.ts';
import { fakeContext, pausePoint } from '../testing/fake-app.svelte.ts';
import MessageList from './MessageList.svelte';

// The renderer loads on demand; here it is loaded once, before any row renders.
// The decision view's code too, as the first screen loads it before a card shows (first-screen.ts).
beforeAll(() => Promise.all([loadMarkdown(), loadCardView()]));

const base = { v: 1 as const, conversationId: 'c1', createdAt: 0 };
const user = (seq: number, content: string): Message => ({ ...base, id: `m${seq}`, seq, role: 'user', content });
const assistant = (seq: number, content: string, extra: Partial<Extract<Message, { role: 'assistant' }>> = {}): Message => ({
  ...base,
  id: `m${seq}`,
  seq,
  role: 'assistant',
  content,
  toolCalls: [],
  turnIndex: 0,
  status: 'complete',
  ...extra,
});

function renderList(
  messages: Message[],
  pauses = [pausePoint()].slice(0, 0),
  active = false,
  more: { hasEarlier?: boolean; focusCardId?: string; focusMessageId?: string; thinking?: boolean; loading?: boolean } = {},
) {
  const fake = fakeContext();
  const onShowEarlier = vi.fn();
  const props = {
    messages,
    pauses,
    active,
    focusCardId: more.focusCardId ?? null,
    focusMessageId: more.focusMessageId ?? null,
    hasEarlier: more.hasEarlier ?? false,
    thinking: more.thinking ?? false,
    loading: more.loading ?? false,
    onShowEarlier,
  };
  const view = render(MessageList, { props, context: fake.context });
  return { ...fake, ...view, onShowEarlier };
}

describe('MessageList', () => {
  test('opens at a search match: the message row is scrolled to and focused; for a tool result, the row of its call', async () => {
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.getAttribute('data-message-id') ?? '');
    };
    const call = { id: 'call-1', name: 'http_request', arguments: '{"method":"GET","url":"https://x.test"}' };
    const tool: Message = { ...base, id: 'm2', seq: 2, role: 'tool', toolCallId: 'call-1', toolName: 'http_request', content: 'found it', outcome: 'done' };
    const { rerender } = renderList([user(0, 'Look it up'), assistant(1, '', { toolCalls: [call] }), tool, user(3, 'Thanks')], undefined, false, {
      focusMessageId: 'm0',
    });
    await vi.waitFor(() => expect(scrolled).toContain('m0'));
    const row = document.querySelector('[data-message-id="m0"]')!;
    expect(document.activeElement).toBe(row);
    expect(row.classList.contains('search-target')).toBe(true);
    await rerender({ focusMessageId: 'm2' });
    await vi.waitFor(() => expect(document.activeElement).toBe(document.querySelector('[data-message-id="m1"]')));
  });

  test('a match older than the messages read asks for earlier pages', () => {
    const { onShowEarlier } = renderList([user(5, 'recent')], undefined, false, { hasEarlier: true, focusMessageId: 'm0' });
    flushSync();
    expect(onShowEarlier).toHaveBeenCalled();
  });

  test('shows that the agent is thinking until its answer has text, and says so to screen readers', async () => {
    const { rerender } = renderList([user(0, 'Hi')], undefined, true, { thinking: true });
    const messages = screen.getByRole('region', { name: 'Messages' });
    expect(within(messages).getByText('Agent is thinking…')).toBeTruthy();
    await rerender({ thinking: false, messages: [user(0, 'Hi'), assistant(1, 'Hello', { status: 'streaming' })] });
    expect(within(messages).queryByText('Agent is thinking…')).toBeNull();
  });

  test('a call an MCP App’s view proposed is marked as the view’s, not the agent’s', () => {
    const call = { id: 'view-1', name: 'shop__pay', arguments: '{}' };
    renderList([user(0, 'hi'), assistant(1, '', { toolCalls: [call], fromView: { viewCallId: 'call_view' } }), assistant(2, 'Done.')]);
    expect(screen.getByText('From a view:').className).toContain('meta');
    // The model's own answer keeps its screen-reader label only.
    expect(screen.getByText('Agent:').className).toContain('visually-hidden');
  });

  test('renders user text as text and assistant text as sanitised markdown', () => {
    renderList([user(0, '<b>not bold</b>'), assistant(1, '**bold** <script>x()</script>')]);
    expect(screen.getByText('<b>not bold</b>')).toBeTruthy();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(document.querySelector('script')).toBeNull();
  });

  test('a tool call shows compactly with its state, expandable to arguments and result, with its card beneath', () => {
    const call = { id: 'call-1', name: 'http_request', arguments: '{"method":"POST","url":"https://x.test"}' };
    renderList(
      [
        user(0, 'Post it'),
        assistant(1, 'I will post it.', { toolCalls: [call] }),
        { ...base, id: 'm2', seq: 2, role: 'tool', toolCallId: 'call-1', toolName: 'http_request', content: '__APPROVAL_REQUIRED__p1', outcome: 'awaiting_approval' },
      ],
      [pausePoint({ origin: 'gate', toolCallId: 'call-1', toolName: 'http_request', title: 'POST to x.test', payload: { method: 'POST' } })],
    );
    const details = document.querySelector('details.tool-call')!;
    expect(within(details as HTMLElement).getByText('Awaiting approval')).toBeTruthy();
    expect(details.textContent).toContain('"method": "POST"');
    expect(screen.getByRole('region', { name: 'POST to x.test' })).toBeTruthy();
    // The tool message is not a row of its own.
    expect(document.querySelectorAll('.message-item')).toHaveLength(2);
  });

  test('a call held back by a pending card of its own answer reads as waiting, not as not run', () => {
    const ask = { id: 'ask-1', name: 'wait_for_approval', arguments: '{"title":"Send it?","description":"D"}' };
    const send = { id: 'call-2', name: 'save_note', arguments: '{"title":"x","body":"y"}' };
    renderList(
      [
        user(0, 'Save it, but ask first'),
        assistant(1, '', { toolCalls: [ask, send] }),
        { ...base, id: 'm2', seq: 2, role: 'tool', toolCallId: 'ask-1', toolName: 'wait_for_approval', content: '__APPROVAL_REQUIRED__p1', outcome: 'awaiting_approval' },
      ],
      [pausePoint({ origin: 'model', toolCallId: 'ask-1', toolName: 'wait_for_approval', title: 'Send it?' })],
    );
    const [askRow, sendRow] = document.querySelectorAll<HTMLElement>('details.tool-call');
    expect(within(askRow!).getByText('Awaiting approval')).toBeTruthy();
    expect(within(sendRow!).getByText('Waiting for your answer')).toBeTruthy();
    expect(sendRow!.textContent).not.toContain('Not run');
  });

  test('a call an approval rule allowed shows as done, with a quiet decided line instead of a card', () => {
    const call = { id: 'call-1', name: 'http_request', arguments: '{"method":"GET","url":"https://api.example.com/x"}' };
    renderList(
      [
        user(0, 'Fetch it'),
        assistant(1, '', { toolCalls: [call] }),
        { ...base, id: 'm2', seq: 2, role: 'tool', toolCallId: 'call-1', toolName: 'http_request', content: '200 OK', outcome: 'done' },
      ],
      [
        pausePoint({
          origin: 'rule', status: 'resolved', resolution: 'approve', resolvedAt: 1_000, toolCallId: 'call-1', toolName: 'http_request',
          title: 'Allowed by rule: Allow http_request — everywhere', rule: { id: 'r1', effect: 'allow', text: 'Allow http_request — everywhere' },
        }),
      ],
    );
    const details = document.querySelector('details.tool-call') as HTMLElement;
    expect(within(details).getByText('Done')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /Allowed by rule/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(document.querySelector('.rule-decision')?.textContent).toContain('Allow http_request — everywhere');
  });

  test('renders the rows it is given, with a control for earlier ones when there are some', async () => {
    const { onShowEarlier, rerender } = renderList([user(0, 'first'), user(1, 'second')]);
    expect(document.querySelectorAll('.message-item')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Show earlier messages' })).toBeNull();
    await rerender({ hasEarlier: true });
    await fireEvent.click(screen.getByRole('button', { name: 'Show earlier messages' }));
    expect(onShowEarlier).toHaveBeenCalledTimes(1);
  });

  test('a pending card whose call is in earlier messages asks for them; a decided one waits for the reader', () => {
    const resolved = pausePoint({ id: 'old', toolCallId: 'call-old', status: 'resolved', resolution: 'approve', title: 'Old card' });
    const { onShowEarlier, rerender } = renderList([user(5, 'recent')], [resolved], false, { hasEarlier: true });
    expect(screen.queryByRole('region', { name: 'Old card' })).toBeNull();
    expect(onShowEarlier).not.toHaveBeenCalled();

    void rerender({ pauses: [resolved, pausePoint({ id: 'waiting', toolCallId: 'call-waiting', title: 'Waiting card' })] });
    flushSync();
    expect(onShowEarlier).toHaveBeenCalled();
  });

  test('with the whole conversation shown, a card whose call is not in it shows at the end', () => {
    renderList([user(0, 'hi')], [pausePoint({ toolCallId: 'nowhere', title: 'Orphan card' })]);
    expect(screen.getByRole('region', { name: 'Orphan card' })).toBeTruthy();
  });

  test('while the messages are read, a card to focus waits for its row: it appears once, under its call, and takes focus there', async () => {
    const opened = pausePoint({ title: 'Opened card' });
    const { rerender } = renderList([], [opened], false, { focusCardId: opened.id, loading: true });
    // Shown at the end now, it would be a second element once placed, taking focus a second time.
    expect(screen.queryByRole('region', { name: 'Opened card' })).toBeNull();
    expect(screen.queryByText('Ask for something.')).toBeNull();

    const call = { id: 'call-1', name: 'wait_for_approval', arguments: '{}' };
    await rerender({ loading: false, messages: [user(0, 'Send it'), assistant(1, '', { toolCalls: [call] })] });
    const card = screen.getByRole('region', { name: 'Opened card' });
    expect(card.closest('.message-item')).not.toBeNull();
    expect(document.activeElement).toBe(card);
  });

  test('a streaming update touches only the changed row, and only its last block', async () => {
    const { rerender } = renderList([user(0, 'Hi'), assistant(1, 'First paragraph.\n\nSecond', { status: 'streaming' })]);
    const userRow = screen.getByText('Hi');
    const firstBlock = screen.getByText('First paragraph.');
    // A live query hands over fresh copies of every row on each write.
    await rerender({ messages: [user(0, 'Hi'), assistant(1, 'First paragraph.\n\nSecond paragraph grows', { status: 'streaming' })] });
    expect(screen.getByText('Hi')).toBe(userRow);
    expect(screen.getByText('First paragraph.')).toBe(firstBlock);
    expect(screen.getByText('Second paragraph grows')).toBeTruthy();
  });

  test('a long list shows its newest rows first and the older ones over the next frames, in order', async () => {
    const messages = Array.from({ length: 60 }, (_, seq) => user(seq, `row ${seq}`));
    renderList(messages);
    const shown = () => [...document.querySelectorAll('.message-item')].map((li) => li.textContent?.replace('You:', '').trim());
    expect(shown()).toHaveLength(12);
    expect(shown().at(-1)).toBe('row 59');
    expect(shown()[0]).toBe('row 48');
    await vi.waitFor(() => expect(shown()).toHaveLength(60));
    expect(shown()).toEqual(messages.map((m) => m.content));
  });
});


describe('MessageList with versions', () => {
  const versions = { current: 'b1', rootActive: 1, branches: [{ id: 'b1', parent: '', from: 1, active: 2, createdAt: 5 }] };
  const conversation = (state: Conversation['state'] = { kind: 'idle' }): Conversation => ({
    v: 1,
    id: 'c1',
    title: 'Facts',
    createdAt: 0,
    updatedAt: 0,
    state,
    turns: 2,
    nextSeq: 3,
    versions,
  });
  const history: Message[] = [user(0, 'A fact?'), assistant(1, 'Octopuses have three hearts.'), { ...assistant(2, 'Honey never spoils.'), branch: 'b1' }];

  function renderVersions(more: { runsOn?: string; state?: Conversation['state']; focusMessageId?: string; hasEarlier?: boolean } = {}) {
    const fake = fakeContext();
    const onShowEarlier = vi.fn();
    const props = {
      messages: history,
      pauses: [],
      active: false,
      focusCardId: null,
      conversation: conversation(more.state),
      runsOn: more.runsOn,
      focusMessageId: more.focusMessageId ?? null,
      hasEarlier: more.hasEarlier ?? false,
      onShowEarlier,
    };
    render(MessageList, { props, context: fake.context });
    return { ...fake, onShowEarlier };
  }

  test('a search result in another version opens the conversation as it is, without reading page after page for it', async () => {
    const { onShowEarlier } = renderVersions({ focusMessageId: 'm1', hasEarlier: true });
    const messages = screen.getByRole('region', { name: 'Messages' });
    expect(await within(messages).findByText('Honey never spoils.')).toBeTruthy();
    expect(within(messages).queryByText('Octopuses have three hearts.')).toBeNull();
    expect(onShowEarlier).not.toHaveBeenCalled();
  });

  test('shows the current version only, with its place among the versions, Edit and Regenerate', async () => {
    const { client } = renderVersions();
    const messages = screen.getByRole('region', { name: 'Messages' });
    const group = await within(messages).findByRole('group', { name: 'Version 2 of 2' });
    expect(group.textContent).toContain('2 of 2');
    expect(within(messages).queryByText('Octopuses have three hearts.')).toBeNull();
    expect(within(messages).getByText('Honey never spoils.')).toBeTruthy();
    expect((within(group).getByRole('button', { name: 'Next version' }) as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(within(group).getByRole('button', { name: 'Previous version' }));
    expect(client.switchVersion).toHaveBeenCalledWith('c1', '');
    await fireEvent.click(await within(messages).findByRole('button', { name: 'Regenerate' }));
    expect(client.regenerate).toHaveBeenCalledWith('c1');
    expect(within(messages).getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  test('on a conversation another device runs: the version is shown, nothing offers to change it', async () => {
    renderVersions({ runsOn: 'Laptop' });
    const messages = screen.getByRole('region', { name: 'Messages' });
    const group = await within(messages).findByRole('group', { name: 'Version 2 of 2' });
    expect((within(group).getByRole('button', { name: 'Previous version' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(messages).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(messages).queryByRole('button', { name: 'Regenerate' })).toBeNull();
  });

  test('while it runs, Edit and Regenerate are not offered and the switches wait', async () => {
    renderVersions({ state: { kind: 'running', owner: 'tab-2', since: 0 } });
    const messages = screen.getByRole('region', { name: 'Messages' });
    const group = await within(messages).findByRole('group', { name: 'Version 2 of 2' });
    expect((within(group).getByRole('button', { name: 'Previous version' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(messages).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(messages).queryByRole('button', { name: 'Regenerate' })).toBeNull();
  });
});
