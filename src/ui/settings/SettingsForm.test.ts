// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { PausepointDb } from '../../storage/db.ts';
import { readSettings } from '../../storage/settings-repo.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import SettingsForm from './SettingsForm.svelte';

let db: PausepointDb;

function renderForm(testConnection = vi.fn(async () => ['gpt-4o-mini', 'gpt-4o'])) {
  db = new PausepointDb(`settings-test-${crypto.randomUUID()}`);
  const fake = fakeContext({ testConnection });
  fake.app.db = db;
  const onSaved = vi.fn();
  render(SettingsForm, { props: { initial: undefined, onSaved }, context: fake.context });
  return { onSaved, testConnection };
}

afterEach(async () => {
  await db.delete();
});

describe('SettingsForm', () => {
  test('the Demo model needs no key and saves as is', async () => {
    const { onSaved } = renderForm();
    expect(screen.getByText(/scripted model/)).toBeTruthy();
    expect(screen.queryByLabelText('API key')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await readSettings(db)).toMatchObject({ provider: 'demo', expiryMinutes: null });
  });

  test('a preset fills the Base URL; Test connection lists models; Save stores the key', async () => {
    const { onSaved, testConnection } = renderForm();
    await fireEvent.change(screen.getByRole('combobox', { name: 'Provider' }), { target: { value: 'openai' } });
    expect((screen.getByRole('textbox', { name: 'Base URL' }) as HTMLInputElement).value).toBe('https://api.openai.com/v1');
    const key = screen.getByLabelText('API key') as HTMLInputElement;
    expect(key.type).toBe('password');
    await fireEvent.input(key, { target: { value: 'sk-test' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(/Connected\. 2 models are available/)).toBeTruthy();
    expect(testConnection).toHaveBeenCalledWith(expect.objectContaining({ provider: 'openai', apiKey: 'sk-test' }));
    expect(document.querySelectorAll('datalist option')).toHaveLength(2);
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await readSettings(db)).toMatchObject({ provider: 'openai', apiKey: 'sk-test', model: 'gpt-4o-mini' });
  });

  test('a failed connection test says why in plain words', async () => {
    renderForm(vi.fn(async () => Promise.reject(new Error('The endpoint refused the API key.'))));
    await fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByText(/Could not connect/)).textContent).toContain('refused the API key');
  });

  test('an invalid Base URL blocks Save', async () => {
    const { onSaved } = renderForm();
    await fireEvent.change(screen.getByRole('combobox', { name: 'Provider' }), { target: { value: 'custom' } });
    await fireEvent.input(screen.getByRole('textbox', { name: 'Base URL' }), { target: { value: 'not a url' } });
    await fireEvent.input(screen.getByRole('combobox', { name: 'Model' }), { target: { value: 'm' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(/full address/)).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
  });
});
