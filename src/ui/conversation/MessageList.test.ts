// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, test } from 'vitest';
import type { Message } from '../../engine/records/index.ts';
import { fakeContext, pausePoint } from '../testing/fake-app.svelte.ts';
import MessageList from './MessageList.svelte';

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

function renderList(messages: Message[], pauses = [pausePoint()].slice(0, 0), active = false) {
  const fake = fakeContext();
  const view = render(MessageList, { props: { messages, pauses, active, focusCardId: null }, context: fake.context });
  return { ...fake, ...view };
}

describe('MessageList', () => {
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

  test('renders only the newest 200 rows, with a control for earlier ones', async () => {
    const many = Array.from({ length: 450 }, (_, i) => user(i, `message ${i}`));
    renderList(many);
    expect(document.querySelectorAll('.message-item')).toHaveLength(200);
    expect(screen.queryByText('message 249')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Show earlier messages (250 more)' }));
    expect(document.querySelectorAll('.message-item')).toHaveLength(400);
    expect(screen.getByText('message 250')).toBeTruthy();
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
});
