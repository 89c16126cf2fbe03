// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Conversation, ConversationState } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { loadMarkdown } from '../markdown/markdown-renderer.svelte.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import ConversationView from './ConversationView.svelte';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));
beforeAll(() => loadMarkdown());

function conversation(state: ConversationState, over: Partial<Conversation> = {}): Conversation {
  return { v: 1, id: 'c1', title: 'Quarterly newsletter', createdAt: 1, updatedAt: 1, state, turns: 1, nextSeq: 0, ...over };
}
const LAPTOP = { id: 'dev-laptop', name: 'Chromium on Linux' };

async function show(record: Conversation) {
  await db.settings.put({ key: 'deviceId', value: 'dev-phone' });
  await db.conversations.put(record);
  const fake = fakeContext({ db });
  render(ConversationView, { props: { conversationId: record.id }, context: fake.context });
  await screen.findByRole('heading', { name: 'Quarterly newsletter' });
  return fake.client;
}

describe('ConversationView — a conversation another device runs', () => {
  test('says where it runs, and the composer is disabled with that explanation', async () => {
    await show(conversation({ kind: 'idle' }, { ownerDevice: LAPTOP }));
    // Exactly one element says it (an end-to-end test finds it by this text).
    expect(await screen.findAllByText(/runs on Chromium on Linux/i)).toHaveLength(1);
    expect(screen.getByText('Runs on Chromium on Linux')).toBeTruthy();
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    expect(box.disabled).toBe(true);
    expect(screen.getByText('Only Chromium on Linux, where it runs, can send into this conversation.').id).toBe(box.getAttribute('aria-describedby'));
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  test('Stop stays; Retry and Continue are not offered', async () => {
    const client = await show(conversation({ kind: 'running', owner: 'a-laptop-tab', since: 1 }, { ownerDevice: LAPTOP }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    expect(client.stop).toHaveBeenCalledWith('c1');

    await db.conversations.put(conversation({ kind: 'error', message: 'The endpoint refused', code: 'server', retryable: true }, { ownerDevice: LAPTOP }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    await db.conversations.put(conversation({ kind: 'error', message: 'The tab closed', code: 'interrupted', retryable: true }, { ownerDevice: LAPTOP }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Interrupted: The tab closed'));
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  test('a conversation this device runs, or one from before sync, is as before', async () => {
    await show(conversation({ kind: 'error', message: 'The endpoint refused', code: 'server', retryable: true }, { ownerDevice: { id: 'dev-phone', name: 'Phone' } }));
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.queryByText(/^Runs on/)).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).disabled).toBe(false);
  });
});
