// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { SyncDevice, SyncStatus } from '../../storage/records/sync-records.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import DevicesSection from './DevicesSection.svelte';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

const CONFIG = { v: 1, on: true, serverUrl: 'https://couch.example.com', database: 'pausepoint', username: 'ana', password: 'secret', deviceName: 'Chromium on Linux', since: 1 };

function setUp() {
  const fake = fakeContext({ db });
  render(DevicesSection, { context: fake.context });
  return { sync: fake.client.sync, announcer: fake.app.announcer };
}

async function turnedOn(status?: Partial<SyncStatus>, devices: SyncDevice[] = []) {
  await db.settings.bulkPut([
    { key: 'sync', value: CONFIG },
    { key: 'deviceId', value: 'dev-laptop' },
    ...(status ? [{ key: 'syncStatus', value: { v: 1, kind: 'up_to_date', at: 1_700_000_000_000, skipped: 0, ...status } }] : []),
  ]);
  await db.syncDevices.bulkPut(devices);
}

const region = () => screen.getByRole('region', { name: 'Devices' });

async function fillForm(over: Partial<Record<string, string>> = {}) {
  const values: Record<string, string> = {
    'Sync server URL': 'https://couch.example.com',
    'User name': 'ana',
    Password: 'secret',
    'Encryption passphrase': 'correct horse battery staple',
    'Repeat passphrase': 'correct horse battery staple',
    ...over,
  };
  for (const [label, value] of Object.entries(values)) await fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

describe('Devices — turning sync on', () => {
  it('is a region named Devices whose form has every field by its label, with the defaults', async () => {
    setUp();
    const form = await within(region()).findByRole('button', { name: 'Turn on sync' });
    expect(form).toBeTruthy();
    expect((screen.getByLabelText("This device's name") as HTMLInputElement).value).toMatch(/ on /);
    expect(screen.getByLabelText('Sync server URL').getAttribute('placeholder')).toBe('https://couch.example.com');
    expect((screen.getByLabelText('Database') as HTMLInputElement).value).toBe('pausepoint');
    expect((screen.getByLabelText('User name') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Password') as HTMLInputElement).type).toBe('password');
    expect((screen.getByLabelText('Encryption passphrase') as HTMLInputElement).type).toBe('password');
    expect((screen.getByLabelText('Repeat passphrase') as HTMLInputElement).type).toBe('password');
  });

  it('sends nothing while the passphrases differ or the address is not one, and says why', async () => {
    const { sync } = setUp();
    await screen.findByRole('button', { name: 'Turn on sync' });
    await fillForm({ 'Repeat passphrase': 'correct horse battery stapel' });
    await fireEvent.click(screen.getByRole('button', { name: 'Turn on sync' }));
    expect(screen.getByRole('alert').textContent).toBe('The passphrases do not match.');
    expect(screen.getByLabelText('Repeat passphrase').getAttribute('aria-invalid')).toBe('true');

    await fillForm({ 'Sync server URL': 'couch.example.com' });
    await fireEvent.click(screen.getByRole('button', { name: 'Turn on sync' }));
    expect(screen.getByRole('alert').textContent).toContain('full address');
    expect(sync.turnOn).not.toHaveBeenCalled();
  });

  it('sends the form once it is complete; user name and password may be empty', async () => {
    const { sync } = setUp();
    await screen.findByRole('button', { name: 'Turn on sync' });
    await fireEvent.input(screen.getByLabelText("This device's name"), { target: { value: '  Laptop ' } });
    await fillForm({ 'User name': '', Password: '' });
    await fireEvent.click(screen.getByRole('button', { name: 'Turn on sync' }));
    expect(sync.turnOn).toHaveBeenCalledWith({
      deviceName: 'Laptop',
      serverUrl: 'https://couch.example.com',
      database: 'pausepoint',
      username: '',
      password: '',
      passphrase: 'correct horse battery staple',
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a refusal shows its message as an alert; a missing database can be created from it', async () => {
    const { sync } = setUp();
    sync.turnOn.mockResolvedValueOnce({ ok: false, refusal: { kind: 'no_database', message: 'The database pausepoint does not exist on this server.' } });
    await screen.findByRole('button', { name: 'Turn on sync' });
    await fillForm();
    await fireEvent.click(screen.getByRole('button', { name: 'Turn on sync' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The database pausepoint does not exist on this server.');
    await fireEvent.click(screen.getByRole('button', { name: 'Create the database' }));
    expect(sync.turnOn).toHaveBeenLastCalledWith(expect.objectContaining({ createDatabase: true, database: 'pausepoint', passphrase: 'correct horse battery staple' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('a CORS refusal shows the [chttpd] and [cors] settings for this page’s origin and a curl line', async () => {
    const { sync } = setUp();
    sync.turnOn.mockResolvedValueOnce({ ok: false, refusal: { kind: 'cors', message: 'The server refused this page’s origin (CORS).' } });
    await screen.findByRole('button', { name: 'Turn on sync' });
    await fillForm();
    await fireEvent.click(screen.getByRole('button', { name: 'Turn on sync' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The server refused this page’s origin (CORS).');
    expect(alert.textContent).toContain('[chttpd]\nenable_cors = true');
    expect(alert.textContent).toContain(`[cors]\norigins = ${location.origin}\ncredentials = true`);
    expect(alert.textContent).toContain("curl -X PUT -u 'ADMIN:PASSWORD' 'https://couch.example.com/_node/_local/_config/cors/origins'");
    expect(screen.queryByRole('button', { name: 'Create the database' })).toBeNull();
  });
});

describe('Devices — the passphrase’s strength', { timeout: 60_000 }, () => {
  it('measures the passphrase as it is typed: a meter named Passphrase strength, read out politely', async () => {
    setUp();
    await screen.findByRole('button', { name: 'Turn on sync' });
    const field = screen.getByLabelText('Encryption passphrase');
    await fireEvent.input(field, { target: { value: 'a' } });
    // zxcvbn's dictionaries load on the first measure (seconds on a busy machine).
    const meter = await screen.findByRole('meter', { name: 'Passphrase strength' }, { timeout: 30_000 });
    const said = document.getElementById(field.getAttribute('aria-describedby')!.split(' ').find((id) => id.endsWith('-strength'))!)!;
    expect(said.getAttribute('aria-live')).toBe('polite');
    expect(said.textContent).toMatch(/^Too weak: one GPU offline guesses it in less than a minute; a new sync database needs at least a year\./);
    expect(meter.getAttribute('aria-valuetext')).toBe(said.textContent);

    await fireEvent.input(field, { target: { value: 'a long passphrase for the tests' } });
    await waitFor(() => expect(said.textContent).toMatch(/^Strong enough: one GPU offline needs .+ to guess it\.$/), { timeout: 10_000 });
    expect(Number(meter.getAttribute('value'))).toBeGreaterThan(11.5);
  });

  it('Suggest a passphrase fills both fields with four random words and says its entropy', async () => {
    setUp();
    await fireEvent.click(await screen.findByRole('button', { name: 'Suggest a passphrase' }));
    const suggested = await screen.findByText(/^Suggested:/, {}, { timeout: 30_000 });
    const phrase = (screen.getByLabelText('Encryption passphrase') as HTMLInputElement).value;
    expect(phrase).toMatch(/^[a-z]+ [a-z]+ [a-z]+ [a-z]+$/);
    expect((screen.getByLabelText('Repeat passphrase') as HTMLInputElement).value).toBe(phrase);
    expect(suggested.textContent).toContain(phrase);
    expect(suggested.textContent).toContain('about 51.7 bits');
  });

  it('a passphrase the worker refuses as weak is said at its field, and the field is marked invalid', async () => {
    const { sync } = setUp();
    const message = 'This passphrase is too weak for a new sync database. Too weak: one GPU offline guesses it in about 3 days. Nothing was changed.';
    sync.turnOn.mockResolvedValueOnce({ ok: false, refusal: { kind: 'weak_passphrase', message } });
    await screen.findByRole('button', { name: 'Turn on sync' });
    await fillForm({ 'Encryption passphrase': 'password1234', 'Repeat passphrase': 'password1234' });
    await fireEvent.click(screen.getByRole('button', { name: 'Turn on sync' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(message);
    const field = screen.getByLabelText('Encryption passphrase');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(alert.id);
    // Next to the field it is about: the passphrase's own block holds it.
    expect(field.closest('.field')?.contains(alert)).toBe(true);
  });
});

describe('Devices — the status line', () => {
  const cases: [Partial<SyncStatus>, RegExp, boolean][] = [
    [{ kind: 'syncing', progress: { done: 3, total: 10 } }, /^Syncing: 3 of 10…$/, true],
    [{ kind: 'syncing' }, /^Syncing…$/, true],
    [{ kind: 'up_to_date' }, /^Up to date/, false],
    [{ kind: 'unreachable', message: 'connection refused' }, /cannot be reached \(connection refused\)/, true],
    [{ kind: 'unauthorized' }, /refused the user name or password/, true],
    [{ kind: 'forbidden' }, /refuses this user access to the database/, true],
    [{ kind: 'wrong_passphrase' }, /encryption passphrase is wrong/, true],
    [{ kind: 'no_database' }, /database does not exist/, true],
    [{ kind: 'up_to_date', skipped: 2 }, /^Up to date.*2 documents from the server could not be read and were skipped/, false],
  ];

  it.each(cases)('%o reads %s', async (status, text, retry) => {
    await turnedOn(status);
    const { sync } = setUp();
    await waitFor(() => expect(within(region()).getByRole('status').textContent).toMatch(text));
    const button = screen.queryByRole('button', { name: 'Try again' });
    expect(button !== null).toBe(retry);
    if (button) {
      await fireEvent.click(button);
      expect(sync.retry).toHaveBeenCalledOnce();
    }
  });

  it('CORS refused: the status says so and shows the settings to add', async () => {
    await turnedOn({ kind: 'cors' });
    setUp();
    await waitFor(() => expect(within(region()).getByRole('status').textContent).toContain('refuses requests from this page (CORS)'));
    expect(region().textContent).toContain(`origins = ${location.origin}`);
    expect(region().textContent).toContain('/_node/_local/_config/');
  });
});

describe('Devices — paired devices', () => {
  const devices: SyncDevice[] = [
    { v: 1, id: 'dev-laptop', name: 'Chromium on Linux', lastSeenAt: 1_700_000_000_000 },
    { v: 1, id: 'dev-phone', name: 'Chrome on Android', lastSeenAt: 1_700_000_100_000 },
    { v: 1, id: 'dev-old', name: 'Old tablet', lastSeenAt: 1, removed: true },
  ];

  it('lists each device by name, marks this one, and removes another from its own list item', async () => {
    await turnedOn({ kind: 'up_to_date' }, devices);
    const { sync } = setUp();
    const phone = await screen.findByRole('listitem', { name: 'Chrome on Android' });
    expect(phone.textContent).toContain('Last seen');
    const laptop = screen.getByRole('listitem', { name: 'Chromium on Linux' });
    expect(within(laptop).getByText('This device')).toBeTruthy();
    expect(within(laptop).queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(screen.queryByRole('listitem', { name: 'Old tablet' })).toBeNull();
    await fireEvent.click(within(phone).getByRole('button', { name: 'Remove' }));
    expect(sync.removeDevice).toHaveBeenCalledWith('dev-phone');
    expect((screen.getByLabelText("This device's name") as HTMLInputElement).value).toBe('Chromium on Linux');
  });

  it('renames this device', async () => {
    await turnedOn({ kind: 'up_to_date' }, devices);
    const { sync } = setUp();
    await screen.findByRole('listitem', { name: 'Chromium on Linux' });
    await fireEvent.input(screen.getByLabelText("This device's name"), { target: { value: 'Work laptop' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect(sync.renameDevice).toHaveBeenCalledWith('Work laptop');
  });

  it('Turn off sync asks first, saying everything stays on this device', async () => {
    await turnedOn({ kind: 'up_to_date' }, devices);
    const { sync } = setUp();
    await fireEvent.click(await screen.findByRole('button', { name: 'Turn off sync' }));
    expect(sync.turnOff).not.toHaveBeenCalled();
    const dialog = screen.getByRole('dialog', { name: 'Turn off sync?' });
    expect(dialog.textContent).toContain('Everything stays on this device');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(sync.turnOff).toHaveBeenCalledOnce();
  });
});

describe('Devices — Add a device', () => {
  it('shows the pairing link and code with copy buttons, the expiry, and the link as a QR image', async () => {
    await turnedOn({ kind: 'up_to_date' });
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { sync } = setUp();
    await fireEvent.click(await screen.findByRole('button', { name: 'Add a device' }));
    expect(sync.addDevice).toHaveBeenCalledOnce();
    const link = (await screen.findByLabelText('Pairing link')) as HTMLInputElement;
    expect(link.value).toBe('http://localhost/#pair=BLOB');
    expect(link.readOnly).toBe(true);
    const code = screen.getByLabelText('Pairing code') as HTMLInputElement;
    expect(code.value).toBe('K7QM-3XPA-9RTW');
    expect(code.readOnly).toBe(true);
    expect(region().textContent).toContain('works for 15 minutes, once');

    const qr = screen.getByRole('img', { name: 'Pairing QR code' }) as HTMLImageElement;
    expect(qr.src.startsWith('data:image/svg+xml,')).toBe(true);
    const svg = decodeURIComponent(qr.src.slice('data:image/svg+xml,'.length));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+"><rect [^>]*\/><path [^>]*d="M[\d,hvMz-]+"\/><\/svg>$/);

    await fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(writeText.mock.calls).toEqual([['http://localhost/#pair=BLOB'], ['K7QM-3XPA-9RTW']]);
  });

  it('a refused clipboard selects the text instead, and says so', async () => {
    await turnedOn({ kind: 'up_to_date' });
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) }, configurable: true });
    const { announcer } = setUp();
    await fireEvent.click(await screen.findByRole('button', { name: 'Add a device' }));
    const code = (await screen.findByLabelText('Pairing code')) as HTMLInputElement;
    await fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(announcer.message).toContain('copy it with the keyboard'));
    expect(document.activeElement === code || code.selectionEnd === code.value.length).toBe(true);
  });
});
