// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { PausepointDb } from '../../storage/db.ts';
import { readApiKeys, readEndpointHeaders, readSettings, saveSettings } from '../../storage/settings-repo.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import type { Settings } from '../../storage/settings-repo.ts';
import SettingsForm from './SettingsForm.svelte';

let db: PausepointDb;

function renderForm(testConnection = vi.fn(async () => ['gpt-4o-mini', 'gpt-4o']), initial?: Settings, existing?: PausepointDb) {
  db = existing ?? new PausepointDb(`settings-test-${crypto.randomUUID()}`);
  const fake = fakeContext({ testConnection });
  fake.app.db = db;
  const onSaved = vi.fn();
  render(SettingsForm, { props: { initial, onSaved }, context: fake.context });
  return { onSaved, testConnection };
}

const provider = () => screen.getByRole('combobox', { name: 'Provider' });
const baseUrl = () => screen.getByRole('textbox', { name: 'Base URL' }) as HTMLInputElement;
const apiKey = () => screen.getByLabelText('API key') as HTMLInputElement;

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

  test('a reminder delay is chosen and saved; the form says plainly that nothing can notify with the browser closed', async () => {
    const { onSaved } = renderForm();
    const reminder = screen.getByRole('combobox', { name: 'Remind me of an approval still waiting' }) as HTMLSelectElement;
    expect([...reminder.options].map((o) => o.text)).toEqual(['Off', 'After 5 minutes', 'After 15 minutes', 'After 1 hour']);
    expect(reminder.value).toBe('null');
    expect(screen.getByText(/With every tab and the browser closed nothing can notify you, because there is no server\./)).toBeTruthy();
    await fireEvent.change(reminder, { target: { value: '15' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await readSettings(db)).toMatchObject({ reminderMinutes: 15 });
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

  test('Save keeps the limits and prices saved in their own panel', async () => {
    const existing = new PausepointDb(`settings-test-${crypto.randomUUID()}`);
    const prices = [{ model: 'pausepoint-demo', input: 1, output: 2 }];
    const initial = await saveSettings(existing, { provider: 'demo', baseUrl: 'https://demo.pausepoint.invalid/v1', apiKey: '', model: 'pausepoint-demo', tokenLimit: 5000, dailyCostLimit: 3, prices });
    const { onSaved } = renderForm(undefined, initial, existing);
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await readSettings(db)).toMatchObject({ tokenLimit: 5000, dailyCostLimit: 3, prices });
  });

  // The page's live settings leave "If nobody decides" out, so the form reads it after it opens.
  const withDecline = async () => {
    const existing = new PausepointDb(`settings-test-${crypto.randomUUID()}`);
    await saveSettings(existing, { provider: 'demo', baseUrl: 'https://demo.pausepoint.invalid/v1', apiKey: '', model: 'pausepoint-demo', declineAfterHours: 24 });
    const { declineAfterHours: _, ...live } = (await readSettings(existing))!;
    return renderForm(undefined, live, existing);
  };
  const decline = () => screen.getByRole('combobox', { name: 'If nobody decides' }) as HTMLSelectElement;

  test('a Save pressed before the stored "If nobody decides" is read keeps it, rather than saving the field’s default over it', async () => {
    const { onSaved } = await withDecline();
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await readSettings(db)).toMatchObject({ declineAfterHours: 24 });
  });

  test('a choice made before the stored one is read is the one shown and saved', async () => {
    const { onSaved } = await withDecline();
    await fireEvent.change(decline(), { target: { value: '8' } });
    // The stored 24 h has been read by now, and did not replace the choice.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(decline().value).toBe('8');
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await readSettings(db)).toMatchObject({ declineAfterHours: 8 });
  });

  test('a failed connection test says why in plain words', async () => {
    renderForm(vi.fn(async () => Promise.reject(new Error('The endpoint refused the API key.'))));
    await fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByText(/Could not connect/)).textContent).toContain('refused the API key');
  });

  test('a key belongs to its origin: switching provider shows the new one’s key or none, and switching back shows the first', async () => {
    const { testConnection, onSaved } = renderForm();
    await fireEvent.change(provider(), { target: { value: 'openai' } });
    await fireEvent.input(apiKey(), { target: { value: 'sk-openai-only' } });

    await fireEvent.change(provider(), { target: { value: 'openrouter' } });
    expect(baseUrl().value).toBe('https://openrouter.ai/api/v1');
    expect(apiKey().value).toBe('');
    await fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText(/Connected\./);
    expect(testConnection).toHaveBeenLastCalledWith(expect.objectContaining({ provider: 'openrouter', apiKey: '' }));

    // A custom host on the same provider field, by typing its address: still no key.
    await fireEvent.change(provider(), { target: { value: 'custom' } });
    await fireEvent.input(baseUrl(), { target: { value: 'https://gateway.example/v1' } });
    expect(apiKey().value).toBe('');
    await fireEvent.input(baseUrl(), { target: { value: 'https://api.openai.com/v1' } });
    expect(apiKey().value).toBe('sk-openai-only');

    await fireEvent.change(provider(), { target: { value: 'openai' } });
    expect(apiKey().value).toBe('sk-openai-only');
    expect(JSON.stringify(testConnection.mock.calls)).not.toContain('sk-openai-only');
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await readApiKeys(db)).toEqual(new Map([['https://api.openai.com', 'sk-openai-only']]));
  });

  test('each origin shows the key saved for it; saving stores the typed key under the Base URL’s origin only', async () => {
    const seed = new PausepointDb(`settings-test-${crypto.randomUUID()}`);
    await saveSettings(seed, { provider: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', apiKey: 'sk-or-saved', model: 'm' });
    const initial = await saveSettings(seed, { provider: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-openai-saved', model: 'gpt-4o-mini' });
    const { onSaved } = renderForm(undefined, initial, seed);
    expect(apiKey().value).toBe('sk-openai-saved');

    await fireEvent.change(provider(), { target: { value: 'openrouter' } });
    await vi.waitFor(() => expect(apiKey().value).toBe('sk-or-saved'));
    await fireEvent.change(provider(), { target: { value: 'lmstudio' } });
    expect(apiKey().value).toBe('');
    await fireEvent.input(apiKey(), { target: { value: 'lm-local' } });
    await fireEvent.input(screen.getByRole('combobox', { name: 'Model' }), { target: { value: 'qwen' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());

    expect(await readApiKeys(db)).toEqual(
      new Map([
        ['https://openrouter.ai', 'sk-or-saved'],
        ['https://api.openai.com', 'sk-openai-saved'],
        ['http://localhost:1234', 'lm-local'],
      ]),
    );
    expect(await readSettings(db)).toMatchObject({ provider: 'lmstudio', baseUrl: 'http://localhost:1234/v1', apiKey: 'lm-local' });
  });

  test('custom headers: Add header and Remove edit rows, bad ones are field errors, and each origin saves and shows its own', async () => {
    const seed = new PausepointDb(`settings-test-${crypto.randomUUID()}`);
    await saveSettings(seed, { provider: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', apiKey: '', model: 'm', headers: [{ name: 'X-Title', value: 'Pausepoint' }] });
    const initial = await saveSettings(seed, { provider: 'custom', baseUrl: 'https://gateway.example/v1', apiKey: 'sk-gw', model: 'm' });
    const { onSaved, testConnection } = renderForm(undefined, initial, seed);
    const names = () => screen.queryAllByLabelText('Header name') as HTMLInputElement[];
    const values = () => screen.queryAllByLabelText('Header value') as HTMLInputElement[];
    expect(names()).toHaveLength(0);

    const add = screen.getByRole('button', { name: 'Add header' });
    await fireEvent.click(add);
    await fireEvent.click(add);
    await fireEvent.click(add);
    await fireEvent.input(names()[0]!, { target: { value: 'Authorization' } });
    await fireEvent.input(values()[0]!, { target: { value: 'Bearer x' } });
    await fireEvent.input(names()[1]!, { target: { value: 'X-Gateway-Token' } });
    // An input drops line breaks itself; a tab is a control character it keeps.
    await fireEvent.input(values()[1]!, { target: { value: 'tab\there' } });
    // The third row stays empty: it is dropped, not an error.
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(names()[0]!.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/Authorization is sent from the API key/)).toBeTruthy();
    expect(values()[1]!.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/Remove line breaks/)).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();

    await fireEvent.click(screen.getAllByRole('button', { name: 'Remove' })[0]!);
    expect(names().map((input) => input.value)).toEqual(['X-Gateway-Token', '']);
    await fireEvent.input(values()[0]!, { target: { value: 'gw-secret' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await vi.waitFor(() => expect(testConnection).toHaveBeenCalled());
    expect(testConnection.mock.calls[0]).toMatchObject([{ headers: [{ name: 'X-Gateway-Token', value: 'gw-secret' }] }]);

    // Another origin shows its own headers, not the ones typed here.
    await fireEvent.change(provider(), { target: { value: 'openrouter' } });
    await vi.waitFor(() => expect(names().map((input) => input.value)).toEqual(['X-Title']));
    await fireEvent.change(provider(), { target: { value: 'custom' } });
    await fireEvent.input(baseUrl(), { target: { value: 'https://gateway.example/v1' } });
    expect(names().map((input) => input.value)).toEqual(['X-Gateway-Token', '']);
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await readEndpointHeaders(db)).toEqual(
      new Map([
        ['https://openrouter.ai', [{ name: 'X-Title', value: 'Pausepoint' }]],
        ['https://gateway.example', [{ name: 'X-Gateway-Token', value: 'gw-secret' }]],
      ]),
    );
  });

  test('plain http:// is refused for anything but this computer, saying why', async () => {
    const { onSaved, testConnection } = renderForm();
    await fireEvent.change(provider(), { target: { value: 'custom' } });
    await fireEvent.input(baseUrl(), { target: { value: 'http://gateway.example/v1' } });
    await fireEvent.input(screen.getByRole('combobox', { name: 'Model' }), { target: { value: 'm' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(/plain http:\/\/ is allowed only for this computer/)).toBeTruthy();
    expect(baseUrl().getAttribute('aria-invalid')).toBe('true');
    expect(testConnection).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();

    for (const local of ['http://127.0.0.1:8080/v1', 'http://[::1]:8080/v1', 'http://localhost:8080/v1']) {
      await fireEvent.input(baseUrl(), { target: { value: local } });
      await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      await vi.waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
      onSaved.mockClear();
    }
  });

  test('Max tokens per answer starts at 4096, is saved, and must be a whole positive number', async () => {
    const { onSaved } = renderForm();
    await fireEvent.change(provider(), { target: { value: 'openai' } });
    const field = screen.getByRole('spinbutton', { name: 'Max tokens per answer' }) as HTMLInputElement;
    expect(field.value).toBe('4096');
    await fireEvent.input(field, { target: { value: '0' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(/whole number from 1/)).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
    await fireEvent.input(field, { target: { value: '800' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await readSettings(db)).toMatchObject({ provider: 'openai', maxTokens: 800 });
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
