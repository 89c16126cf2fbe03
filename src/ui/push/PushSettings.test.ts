// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { render, screen } from '@testing-library/svelte';
import { afterEach, expect, test, vi } from 'vitest';
import { PausepointDb } from '../../storage/db.ts';
import { savePushSettings } from '../../push/push-settings-store.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import PushSettings from './PushSettings.svelte';

let db: PausepointDb;

afterEach(async () => {
  await db.delete();
});

test('the fields take input, and Save is offered, once the stored settings are in: the topic the phone listens to is never replaced unseen', async () => {
  db = new PausepointDb(`push-settings-test-${crypto.randomUUID()}`);
  await savePushSettings(db, { v: 1, serverUrl: 'https://ntfy.example', topic: 'the-phones-topic', sayRisk: true, graceSeconds: 30, savedAt: 1 }, 'tk_secret');
  const fake = fakeContext();
  fake.app.db = db;
  render(PushSettings, { context: fake.context });

  const topic = () => screen.getByLabelText('Topic') as HTMLInputElement;
  // Before: a new random topic in a field that takes no input, and no Save.
  expect(topic().matches(':disabled')).toBe(true);
  expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  await vi.waitFor(() => expect(topic().matches(':disabled')).toBe(false));
  expect(topic().value).toBe('the-phones-topic');
  expect((screen.getByLabelText('Push server URL') as HTMLInputElement).value).toBe('https://ntfy.example');
  expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
});
