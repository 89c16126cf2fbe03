// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import App from '../App.svelte';
import type { Conversation, Message } from '../engine/records/index.ts';
import { openTestDb } from '../storage/testing/open-test-db.ts';
import type { PausepointDb } from '../storage/db.ts';
import { saveSettings } from '../storage/settings-repo.ts';
import { bound } from './testing/bound-decision.ts';
import { fakeClient, pausePoint } from './testing/fake-app.svelte.ts';
import { serviceWorker as sw } from './testing/pwa-register-double.ts';

// The app loads its views on demand, and the first import of a view makes vitest
// transform that view's whole module tree: on a loaded machine that alone took
// over the default 1 s of findBy*. What these tests wait for appears either way.
configure({ asyncUtilTimeout: 10_000 });


/** The update banner registers the service worker once the page is idle (App.svelte), not at mount. */
const serviceWorkerRegistered = () => waitFor(() => expect(sw.options).toBeDefined());

let db: PausepointDb;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await openTestDb());
  window.location.hash = '';
  sw.reset();
});
afterEach(async () => {
  await cleanup();
  localStorage.clear();
});

const DEMO = { provider: 'demo', baseUrl: 'https://demo.pausepoint.invalid/v1', apiKey: '', model: 'pausepoint-demo' } as const;

function renderApp() {
  const client = fakeClient();
  render(App, { props: { db, client, testConnection: vi.fn(async () => []) } });
  return client;
}

const conversation: Conversation = {
  v: 1,
  id: 'c1',
  title: 'Newsletter',
  createdAt: 1,
  updatedAt: 1,
  state: { kind: 'paused', pending: 1 },
  turns: 1,
  nextSeq: 2,
};
const base = { v: 1 as const, conversationId: 'c1', createdAt: 1 };
const messages: Message[] = [
  { ...base, id: 'm0', seq: 0, role: 'user', content: 'Send the newsletter' },
  {
    ...base,
    id: 'm1',
    seq: 1,
    role: 'assistant',
    content: 'I will ask first.',
    toolCalls: [{ id: 'call-1', name: 'wait_for_approval', arguments: '{}' }],
    turnIndex: 0,
    status: 'complete',
  },
];

describe('App', () => {
  test('first run shows the setup screen under the Pausepoint heading, then the app', async () => {
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Pausepoint', level: 1 })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Connect a model' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'New chat' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Pausepoint', level: 1 })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
  });

  test('a card already pending is shown but not focused; a new one is announced and does not take the focus either', async () => {
    await saveSettings(db, { provider: 'demo', baseUrl: 'https://demo.pausepoint.invalid/v1', apiKey: '', model: 'pausepoint-demo' });
    await db.conversations.put(conversation);
    await db.messages.bulkPut(messages);
    await db.pausePoints.put(pausePoint({ id: 'old', toolCallId: 'call-1', title: 'Old card' }));
    window.location.hash = '#/c/c1';
    renderApp();

    const old = await screen.findByRole('region', { name: 'Old card' });
    expect(document.activeElement).not.toBe(old);
    expect(screen.getByRole('status').textContent).toBe('Paused — awaiting 1 approval');
    expect(screen.getByRole('link', { name: /Approvals/ }).textContent).toMatch(/1/);

    const gated: Message = {
      ...base,
      id: 'm2',
      seq: 2,
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call-2', name: 'http_request', arguments: '{"method":"POST"}' }],
      turnIndex: 1,
      status: 'complete',
    };
    await db.messages.put(gated);
    await db.pausePoints.put(pausePoint({ id: 'new', toolCallId: 'call-2', origin: 'gate', title: 'New card', payload: { method: 'POST' } }));

    const fresh = await screen.findByRole('region', { name: 'New card' });
    await waitFor(() => expect(document.querySelector('[aria-live="polite"][aria-atomic="true"]')?.textContent).toBe('Approval needed: New card'));
    expect(document.activeElement).not.toBe(fresh);
  });

  test('a run that failed where no record could hold it is shown in its conversation until the user acts', async () => {
    await saveSettings(db, DEMO);
    await db.conversations.put({ ...conversation, state: { kind: 'running', owner: 'tab-1', since: 1 } });
    await db.messages.bulkPut(messages.slice(0, 1));
    window.location.hash = '#/c/c1';
    const client = renderApp();
    const list = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(list).findByText('Agent is thinking…')).toBeTruthy();

    client.emit({ type: 'run_failed', conversationId: 'other', message: 'Not this one.' });
    client.emit({ type: 'run_failed', conversationId: 'c1', message: 'The browser ran out of storage space for Pausepoint.' });
    const alert = await screen.findByText('The browser ran out of storage space for Pausepoint.');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(screen.queryByText('Not this one.')).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(client.stop).toHaveBeenCalledWith('c1');
    await waitFor(() => expect(screen.queryByText('The browser ran out of storage space for Pausepoint.')).toBeNull());
  });

  test('the Approvals inbox lists pending cards across conversations and links to each', async () => {
    await saveSettings(db, { provider: 'demo', baseUrl: 'https://demo.pausepoint.invalid/v1', apiKey: '', model: 'pausepoint-demo' });
    await db.conversations.put(conversation);
    await db.messages.bulkPut(messages);
    await db.pausePoints.put(pausePoint({ id: 'p1', toolCallId: 'call-1', title: 'Send it?' }));
    window.location.hash = '#/approvals';
    const client = renderApp();

    const card = await screen.findByRole('region', { name: 'Send it?' });
    expect(within(card).getByRole('link', { name: 'Newsletter' }).getAttribute('href')).toBe('#/c/c1/card/p1');
    await fireEvent.click(within(card).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'approve' })));
  });

  test('a new version waits while a turn runs in this tab: Reload asks first, and goes ahead once the turn is over', async () => {
    await saveSettings(db, DEMO);
    await db.conversations.put({ ...conversation, state: { kind: 'running', owner: 'tab-1', since: 1 } });
    window.location.hash = '#/c/c1';
    renderApp();
    await screen.findByRole('button', { name: 'Stop' });
    await serviceWorkerRegistered();
    flushSync(() => sw.options?.onNeedRefresh?.());

    await fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(await screen.findByRole('heading', { name: 'Reload now?' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(sw.update).not.toHaveBeenCalled();

    await db.conversations.put({ ...conversation, state: { kind: 'idle' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull());
    await fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(sw.update).toHaveBeenCalledOnce());
  });

  test('a turn another tab runs does not hold a new version back; a half-typed message does', async () => {
    await saveSettings(db, DEMO);
    await db.conversations.put({ ...conversation, state: { kind: 'waiting_for_network', owner: 'another-tab', since: 1 } });
    window.location.hash = '#/c/c1';
    renderApp();
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await serviceWorkerRegistered();
    flushSync(() => sw.options?.onNeedRefresh?.());

    await fireEvent.input(box, { target: { value: 'half a thought' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(await screen.findByRole('heading', { name: 'Reload now?' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Not now' }));

    await fireEvent.input(box, { target: { value: '' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(sw.update).toHaveBeenCalledOnce());
  });

  test('Settings, loaded on demand, holds the backup panel', async () => {
    await saveSettings(db, DEMO);
    window.location.hash = '#/settings';
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Backup and storage' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Backup' })).toBeTruthy();
    // Its other sections load on demand too. Waiting for them leaves no import in flight when the file's
    // window goes (the next file in this worker would get the error of a module loaded after that).
    for (const name of ['Usage and limits', 'MCP servers', 'Devices']) expect(await screen.findByRole('heading', { name })).toBeTruthy();
  });

  test('the first Send asks for notification permission while the gesture lasts, never on load', async () => {
    const requestPermission = vi.fn(async () => 'granted' as const);
    const original = Object.getOwnPropertyDescriptor(globalThis, 'Notification');
    Object.defineProperty(globalThis, 'Notification', { configurable: true, value: Object.assign(vi.fn(), { permission: 'default', requestPermission }) });
    try {
      await saveSettings(db, DEMO);
      renderApp();
      const box = await screen.findByRole('textbox', { name: 'Message' });
      expect(requestPermission).not.toHaveBeenCalled();
      await fireEvent.input(box, { target: { value: 'Hello' } });
      await fireEvent.click(screen.getByRole('button', { name: 'Send' }));
      expect(requestPermission).toHaveBeenCalledOnce();
    } finally {
      if (original) Object.defineProperty(globalThis, 'Notification', original);
      else delete (globalThis as { Notification?: unknown }).Notification;
    }
  });
});
