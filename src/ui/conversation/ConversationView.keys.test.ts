// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Conversation, Message } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { loadMarkdown } from '../markdown/markdown-renderer.svelte.ts';
import { fakeContext, pausePoint } from '../testing/fake-app.svelte.ts';
import KeyboardShortcuts from '../shell/KeyboardShortcuts.svelte';
import ConversationView from './ConversationView.svelte';

// A card's keys wait KEYS_ARM_MS (half a second) of real time here: the default 1 s of findBy* is too close on a loaded machine.
configure({ asyncUtilTimeout: 5_000 });

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));
beforeAll(() => loadMarkdown());

const base = { v: 1 as const, conversationId: 'c1', createdAt: 1 };
const conversation = (state: Conversation['state'], nextSeq: number): Conversation => ({
  v: 1,
  id: 'c1',
  title: 'Party',
  createdAt: 1,
  updatedAt: 1,
  state,
  turns: 1,
  nextSeq,
});
const asked = (seq: number, callId: string, name: string): Message => ({
  ...base,
  id: `m${seq}`,
  seq,
  role: 'assistant',
  content: '',
  toolCalls: [{ id: callId, name, arguments: '{}' }],
  turnIndex: seq,
  status: 'complete',
});

async function show() {
  const fake = fakeContext({ db });
  render(ConversationView, { props: { conversationId: 'c1' }, context: fake.context });
  await screen.findByRole('heading', { name: 'Party' });
  return fake;
}

/** Types `text` as a keyboard does: each key goes to whatever has focus, and lands in the message box only if that is it. */
async function type(text: string) {
  for (const key of text) {
    const target = document.activeElement ?? document.body;
    const typed = await fireEvent.keyDown(target, { key });
    if (typed && target instanceof HTMLTextAreaElement) await fireEvent.input(target, { target: { value: target.value + key } });
  }
}

/** A card has appeared and been announced: what used to move the focus to it has run. */
async function announced(fake: ReturnType<typeof fakeContext>, title: string) {
  await waitFor(() => expect(fake.app.announcer.message).toBe(`Approval needed: ${title}`));
  await tick();
}

const armed = (card: HTMLElement) => waitFor(() => expect(card.getAttribute('aria-keyshortcuts')).toBe('A D'));

describe('A key press approves only what the person chose to focus (issue 32, point 2)', () => {
  test('Send → a card appears → typing "also" goes into the message box, and the card stays pending', async () => {
    await db.conversations.put(conversation({ kind: 'idle' }, 0));
    const fake = await show();
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    box.focus();
    await type('book the venue');
    await fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(fake.client.send).toHaveBeenCalledWith('c1', 'book the venue'));
    expect(box.value).toBe('');
    expect(document.activeElement).toBe(box);

    // The model's answer asks: the card appears while the person goes on typing.
    await db.messages.bulkPut([{ ...base, id: 'm0', seq: 0, role: 'user', content: 'book the venue' }, asked(1, 'call-1', 'wait_for_approval')]);
    await db.pausePoints.put(pausePoint({ id: 'p1', toolCallId: 'call-1', title: 'Book the venue' }));
    await db.conversations.put(conversation({ kind: 'paused', pending: 1 }, 2));
    const card = await screen.findByRole('region', { name: 'Book the venue' });
    await announced(fake, 'Book the venue');
    await type('also');
    expect(box.value).toBe('also');
    expect(document.activeElement).toBe(box);

    // Still so once the card's keys work: they are the card's only when the person moves there.
    await armed(card);
    await type(' ask about parking');
    expect(box.value).toBe('also ask about parking');
    expect(fake.client.decide).not.toHaveBeenCalled();
    expect(within(card).getByRole('button', { name: 'Approve' })).toBeTruthy();
  });

  test('A held down across a wait_for_approval approval leaves the gate card that appears right after pending', async () => {
    await db.conversations.put(conversation({ kind: 'paused', pending: 1 }, 2));
    await db.messages.bulkPut([{ ...base, id: 'm0', seq: 0, role: 'user', content: 'order the catering' }, asked(1, 'call-1', 'wait_for_approval')]);
    await db.pausePoints.put(pausePoint({ id: 'p1', toolCallId: 'call-1', title: 'Order the catering' }));
    const fake = await show();
    const first = await screen.findByRole('region', { name: 'Order the catering' });
    first.focus();
    await armed(first);
    await fireEvent.keyDown(first, { key: 'a' });
    await waitFor(() => expect(fake.client.decide).toHaveBeenCalledWith('p1', expect.objectContaining({ type: 'approve' })));

    // The loop goes on: the decision is stored, and the model's next call is gated.
    await db.pausePoints.put(pausePoint({ id: 'p1', toolCallId: 'call-1', title: 'Order the catering', status: 'resolved', resolution: 'approve', resolvedAt: 2 }));
    await db.messages.bulkPut([{ ...base, id: 'm2', seq: 2, role: 'user', content: 'Approval approval: approve', decision: { pausePointId: 'p1' } }, asked(3, 'call-2', 'http_request')]);
    await db.pausePoints.put(pausePoint({ id: 'p2', toolCallId: 'call-2', origin: 'gate', toolName: 'http_request', title: 'POST to shop.example', payload: { method: 'POST' } }));
    await db.conversations.put(conversation({ kind: 'paused', pending: 1 }, 4));
    const gate = await screen.findByRole('region', { name: 'POST to shop.example' });
    await announced(fake, 'POST to shop.example');

    // The key is still down: the browser repeats it, to wherever focus is, before and after the gate card's half second.
    for (let i = 0; i < 5; i++) await fireEvent.keyDown(document.activeElement ?? document.body, { key: 'a', repeat: true });
    await armed(gate);
    for (let i = 0; i < 5; i++) await fireEvent.keyDown(document.activeElement ?? document.body, { key: 'a', repeat: true });
    // Even on the gate card itself, a repeat decides nothing.
    gate.focus();
    await fireEvent.keyDown(gate, { key: 'a', repeat: true });

    expect(fake.client.decide).toHaveBeenCalledOnce();
    expect(within(gate).getByRole('button', { name: 'Approve' })).toBeTruthy();
  });

  test('J moves the focus to the pending card; its A then decides', async () => {
    await db.conversations.put(conversation({ kind: 'paused', pending: 1 }, 2));
    await db.messages.bulkPut([{ ...base, id: 'm0', seq: 0, role: 'user', content: 'order the catering' }, asked(1, 'call-1', 'wait_for_approval')]);
    await db.pausePoints.put(pausePoint({ id: 'p1', toolCallId: 'call-1', title: 'Order the catering' }));
    const fake = await show();
    render(KeyboardShortcuts);
    const card = await screen.findByRole('region', { name: 'Order the catering' });
    await fireEvent.keyDown(document.body, { key: 'j' });
    await waitFor(() => expect(document.activeElement).toBe(card));
    await armed(card);
    await fireEvent.keyDown(card, { key: 'a' });
    await waitFor(() => expect(fake.client.decide).toHaveBeenCalledWith('p1', expect.objectContaining({ type: 'approve' })));
  });
});
