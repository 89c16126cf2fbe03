// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import App from '../../App.svelte';
import type { Conversation } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { openTestDb } from '../../storage/testing/open-test-db.ts';
import { fakeClient } from '../testing/fake-app.svelte.ts';
import { takePairingFragment } from './pairing-fragment.ts';

// Views load on demand; their first import is slow on a loaded machine (see App.test.ts).
configure({ asyncUtilTimeout: 10_000 });

let db: PausepointDb;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ db, cleanup } = await openTestDb());
  history.replaceState(null, '', '/');
});
afterEach(async () => {
  await cleanup();
  localStorage.clear();
});

function renderApp() {
  const client = fakeClient();
  render(App, { props: { db, client, testConnection: vi.fn(async () => []) } });
  return client;
}

const fromOtherDevice: Conversation = {
  v: 1,
  id: 'c-laptop',
  title: 'Quarterly newsletter',
  createdAt: 1,
  updatedAt: 1,
  state: { kind: 'paused', pending: 1 },
  turns: 1,
  nextSeq: 1,
  ownerDevice: { id: 'dev-laptop', name: 'Chromium on Linux' },
};

describe('takePairingFragment', () => {
  test('takes the blob of #pair= and leaves the bare address, keeping no history entry', () => {
    history.replaceState(null, '', '/app/?x=1#pair=AbC-_123');
    const before = history.length;
    expect(takePairingFragment(window)).toBe('AbC-_123');
    expect(location.href).toBe(`${location.origin}/app/?x=1`);
    expect(history.length).toBe(before);
  });

  test('any other address is left alone', () => {
    history.replaceState(null, '', '/#/settings');
    expect(takePairingFragment(window)).toBeNull();
    expect(location.hash).toBe('#/settings');
    history.replaceState(null, '', '/#pair=');
    expect(takePairingFragment(window)).toBeNull();
  });
});

describe('the Join dialog', () => {
  test('a pairing link on the very first run opens Join over the setup screen and leaves the address bare', async () => {
    history.replaceState(null, '', '/#pair=BLOB');
    renderApp();
    const dialog = await screen.findByRole('dialog', { name: 'Join' });
    expect(location.hash).toBe('');
    expect(location.href).not.toContain('BLOB');
    expect(within(dialog).getByLabelText('Pairing code')).toBeTruthy();
    expect((within(dialog).getByLabelText("This device's name") as HTMLInputElement).value).toMatch(/ on /);
    expect(await screen.findByRole('heading', { name: 'Connect a model' })).toBeTruthy();

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Join' })).toBeNull());
  });

  test('a wrong code, an expired or used link: the refusal shows in the dialog as an alert, and it stays open', async () => {
    history.replaceState(null, '', '/#pair=BLOB');
    const client = renderApp();
    const dialog = await screen.findByRole('dialog', { name: 'Join' });

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Type the pairing code');
    expect(client.sync.join).not.toHaveBeenCalled();

    client.sync.join.mockResolvedValueOnce({ ok: false, refusal: { kind: 'wrong_code', message: 'That pairing code does not open this link.' } });
    await fireEvent.input(within(dialog).getByLabelText('Pairing code'), { target: { value: ' K7QM-3XPA-9RTX ' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(client.sync.join).toHaveBeenCalledWith({ blob: 'BLOB', code: 'K7QM-3XPA-9RTX', deviceName: expect.stringMatching(/ on /) });
    expect((await within(dialog).findByRole('alert')).textContent).toContain('That pairing code does not open this link.');

    client.sync.join.mockResolvedValueOnce({ ok: false, refusal: { kind: 'link_used', message: 'This pairing link was used already.' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('This pairing link was used already.'));

    client.sync.join.mockRejectedValueOnce(new Error('The sync server cannot be reached.'));
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Not joined: The sync server cannot be reached.'));
    expect(screen.getByRole('dialog', { name: 'Join' })).toBeTruthy();
  });

  test('joined: the dialog closes, and a device with no model of its own shows the conversations that arrive by sync', async () => {
    history.replaceState(null, '', '/#pair=BLOB');
    const client = renderApp();
    const dialog = await screen.findByRole('dialog', { name: 'Join' });
    await fireEvent.input(within(dialog).getByLabelText('Pairing code'), { target: { value: 'K7QM-3XPA-9RTW' } });
    await fireEvent.input(within(dialog).getByLabelText("This device's name"), { target: { value: 'Phone' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(client.sync.join).toHaveBeenCalledWith({ blob: 'BLOB', code: 'K7QM-3XPA-9RTW', deviceName: 'Phone' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Join' })).toBeNull());

    // What the worker's sync writes as it joins: the config, then the other devices' records.
    await db.settings.bulkPut([
      { key: 'sync', value: { v: 1, on: true, serverUrl: 'https://couch.example.com', database: 'pausepoint', username: '', password: '', deviceName: 'Phone', since: 1 } },
      { key: 'deviceId', value: 'dev-phone' },
    ]);
    await db.conversations.put(fromOtherDevice);
    expect(await screen.findByRole('link', { name: /Quarterly newsletter/ })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Connect a model' })).toBeNull();
  });

  test('a pairing link opened in a tab already running opens Join too', async () => {
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Connect a model' })).toBeTruthy();
    location.hash = '#pair=LATER';
    const dialog = await screen.findByRole('dialog', { name: 'Join' });
    expect(location.hash).toBe('');
    await fireEvent.input(within(dialog).getByLabelText('Pairing code'), { target: { value: 'C' } });
    expect(dialog).toBeTruthy();
  });

  test('a later link replaces the open one, and a link after Cancel opens Join again with its own blob', async () => {
    history.replaceState(null, '', '/#pair=FIRST');
    const client = renderApp();
    const first = await screen.findByRole('dialog', { name: 'Join' });
    location.hash = '#pair=SECOND';
    await waitFor(() => expect(location.hash).toBe(''));
    client.sync.join.mockResolvedValueOnce({ ok: false, refusal: { kind: 'wrong_code', message: 'That pairing code does not open this link.' } });
    await fireEvent.input(within(first).getByLabelText('Pairing code'), { target: { value: 'K7QM' } });
    await fireEvent.click(within(first).getByRole('button', { name: 'Join' }));
    expect(client.sync.join).toHaveBeenLastCalledWith(expect.objectContaining({ blob: 'SECOND' }));

    await within(first).findByRole('alert');
    await fireEvent.click(within(first).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Join' })).toBeNull());
    location.hash = '#pair=THIRD';
    const again = await screen.findByRole('dialog', { name: 'Join' });
    expect(location.hash).toBe('');
    await fireEvent.input(within(again).getByLabelText('Pairing code'), { target: { value: 'K7QM' } });
    await fireEvent.click(within(again).getByRole('button', { name: 'Join' }));
    expect(client.sync.join).toHaveBeenLastCalledWith(expect.objectContaining({ blob: 'THIRD' }));
  });
});
