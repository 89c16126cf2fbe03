// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, expect, test, vi } from 'vitest';
import { PausepointDb } from '../../storage/db.ts';
import { readSettings, saveSettings } from '../../storage/settings-repo.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import UsageSettings from './UsageSettings.svelte';

let db: PausepointDb;

afterEach(async () => {
  await db.delete();
});

const tokens = () => screen.getByLabelText('Token limit per conversation') as HTMLInputElement;

test('the limits can be edited once the stored ones are in, so a value typed is the one saved, not replaced by the stored one', async () => {
  db = new PausepointDb(`usage-settings-test-${crypto.randomUUID()}`);
  const prices = [{ model: 'pausepoint-demo', input: 1, output: 2 }];
  await saveSettings(db, { provider: 'demo', baseUrl: 'https://demo.pausepoint.invalid/v1', apiKey: '', model: 'pausepoint-demo', tokenLimit: 500, prices });
  const fake = fakeContext();
  fake.app.db = db;
  render(UsageSettings, { context: fake.context });

  // Read after it opens: until then the fields take no input (one typed now would be replaced by 500, then saved as 500).
  expect(tokens().matches(':disabled')).toBe(true);
  await vi.waitFor(() => expect(tokens().matches(':disabled')).toBe(false));
  expect(tokens().value).toBe('500');

  await fireEvent.input(tokens(), { target: { value: '1000' } });
  await fireEvent.click(screen.getByRole('button', { name: 'Save limits and prices' }));
  await screen.findByText('Limits and prices saved.');
  expect(await readSettings(db)).toMatchObject({ tokenLimit: 1000, prices });
});
