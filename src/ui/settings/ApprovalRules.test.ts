// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, test, vi } from 'vitest';
import type { ApprovalRule } from '../../engine/records/index.ts';
import { makeConversation, makeRule } from '../../engine/testing/make-records.ts';
import { putRule, setAskForEverything } from '../../storage/approval-rules-repo.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { fakeContext } from '../testing/fake-app.svelte.ts';
import ApprovalRules from './ApprovalRules.svelte';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

const readsFrom = (origin: string, overrides: Partial<ApprovalRule> = {}) =>
  makeRule({
    id: 'reads',
    tool: 'http_request',
    match: [
      { kind: 'one_of', pointer: '/method', values: ['GET', 'HEAD'] },
      { kind: 'url', pointer: '/url', origin },
    ],
    ...overrides,
  });

function renderRules() {
  const fake = fakeContext();
  fake.app.db = db;
  render(ApprovalRules, { context: fake.context });
  const section = screen.getByRole('region', { name: 'Approval rules' });
  return { client: fake.client, section };
}

describe('Settings › Approval rules', () => {
  test('lists every stored rule in words, with its scope, origin and last use', async () => {
    await db.conversations.put(makeConversation({ id: 'c1', title: 'Trip to Lisbon' }));
    await putRule(db, readsFrom('https://docs.example', { createdAt: 1, lastUsedAt: Date.UTC(2026, 0, 2) }));
    await putRule(db, makeRule({ id: 'deny', effect: 'deny', tool: 'delete_note', source: 'card', createdAt: 2, scope: { kind: 'conversation', conversationId: 'c1' } }));
    const { section } = renderRules();

    const items = await within(section).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Allow http_request when method is GET or HEAD and url is on https://docs.example — everywhere');
    expect(items[0]!.textContent).toMatch(/Added in Settings\s*· last used/);
    expect(items[0]!.querySelector('time')?.getAttribute('datetime')).toBe('2026-01-02T00:00:00.000Z');
    expect(items[1]!.textContent).toContain('Deny delete_note — only in “Trip to Lisbon”');
    expect(items[1]!.textContent).toMatch(/Made on an approval card\s*· never used/);
    expect(within(items[1]!).getByRole('link', { name: 'open the conversation' }).getAttribute('href')).toBe('#/c/c1');
    for (const item of items) expect(within(item).getByRole('button', { name: 'Remove' })).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Enable' })).toBeNull();
  });

  test('Remove sends the intent; the list follows storage, not the click', async () => {
    await putRule(db, readsFrom('https://docs.example'));
    const { client, section } = renderRules();
    await fireEvent.click(await within(section).findByRole('button', { name: 'Remove' }));
    expect(client.removeRule).toHaveBeenCalledWith('reads');
    expect(within(section).getAllByRole('listitem')).toHaveLength(1);

    await db.approvalRules.delete('reads');
    await vi.waitFor(() => expect(within(section).queryAllByRole('listitem')).toHaveLength(0));
    expect(within(section).getByText(/No rules yet/)).toBeTruthy();
  });

  test('a disabled rule says so and can be enabled', async () => {
    await putRule(db, readsFrom('https://docs.example', { enabled: false, source: 'backup' }));
    const { client, section } = renderRules();
    const item = await within(section).findByRole('listitem');
    expect(within(item).getByText('Off')).toBeTruthy();
    expect(item.textContent).toContain('Restored from a backup');
    await fireEvent.click(within(item).getByRole('button', { name: 'Enable' }));
    expect(client.enableRule).toHaveBeenCalledWith('reads');
    expect(within(item).queryByRole('button', { name: 'Disable' })).toBeNull();
  });

  test('each rule shows its status, effect, scope and how many calls it decided (or would have), and when last', async () => {
    await putRule(db, readsFrom('https://docs.example', { createdAt: 1, uses: 3, lastUsedAt: Date.UTC(2026, 0, 2) }));
    await putRule(db, makeRule({ id: 'dry', effect: 'deny', tool: 'delete_note', createdAt: 2, dryRun: true, uses: 1, lastUsedAt: Date.UTC(2026, 0, 3) }));
    const { client, section } = renderRules();
    const [active, dry] = await within(section).findAllByRole('listitem');
    expect(active!.textContent).toMatch(/Active\s*· Allow · Everywhere\s*· decided 3 calls, last/);
    expect(within(active!).queryByRole('button', { name: 'Make active' })).toBeNull();
    expect(dry!.textContent).toMatch(/Dry run\s*· Deny · Everywhere\s*· would have decided 1 call, last/);
    await fireEvent.click(within(dry!).getByRole('button', { name: 'Make active' }));
    expect(client.makeRuleActive).toHaveBeenCalledWith('dry');
    expect(within(dry!).getByRole('button', { name: 'Disable' })).toBeTruthy();
    expect(within(dry!).getByRole('button', { name: 'Remove' })).toBeTruthy();
  });

  test('Add a rule previews what the rule would have decided, then saves it as a dry run when asked', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { client, section } = renderRules();
      client.previewRule.mockResolvedValue({
        decided: 2,
        of: 7,
        examples: [{ at: Date.UTC(2026, 0, 2), conversationId: 'c1', toolCallId: 'call-1', toolName: 'delete_note', args: { id: 'n1' } }],
      });
      const form = within(section).getByRole('form', { name: 'Add a rule' });
      await fireEvent.input(within(form).getByLabelText('Tool'), { target: { value: 'delete_note' } });
      await fireEvent.change(within(form).getByLabelText('Effect'), { target: { value: 'deny' } });
      await fireEvent.click(within(form).getByRole('checkbox', { name: 'Dry run' }));
      await vi.advanceTimersByTimeAsync(300);
      expect(await within(form).findByText('This rule would have decided 2 of your last 7 calls.')).toBeTruthy();
      expect(client.previewRule).toHaveBeenCalledTimes(1);
      expect(client.previewRule).toHaveBeenLastCalledWith(expect.objectContaining({ tool: 'delete_note', effect: 'deny', dryRun: true }), expect.any(AbortSignal));
      expect(within(within(form).getByRole('list', { name: 'Calls it would have decided' })).getByRole('listitem').textContent).toContain('delete_note {"id":"n1"}');
      await fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }));
      expect(client.addRule).toHaveBeenCalledWith(expect.objectContaining({ tool: 'delete_note', effect: 'deny', dryRun: true }));
    } finally {
      vi.useRealTimers();
    }
  });

  test('an enabled rule can be disabled without removing it; the list follows storage', async () => {
    await putRule(db, readsFrom('https://docs.example'));
    const { client, section } = renderRules();
    const item = await within(section).findByRole('listitem');
    expect(item.textContent).not.toContain('disabled');
    await fireEvent.click(within(item).getByRole('button', { name: 'Disable' }));
    expect(client.disableRule).toHaveBeenCalledWith('reads');

    await db.approvalRules.update('reads', { enabled: false });
    await vi.waitFor(() => expect(within(section).getByRole('button', { name: 'Enable' })).toBeTruthy());
    expect(within(section).queryByRole('button', { name: 'Disable' })).toBeNull();
  });

  test('an unreadable stored rule is listed as ignored, and can be removed', async () => {
    await db.approvalRules.put({ id: 'broken', effect: 'allow-everything' } as unknown as ApprovalRule);
    const { client, section } = renderRules();
    const item = await within(section).findByRole('listitem');
    expect(item.textContent).toContain('An unreadable rule (broken); it is ignored.');
    await fireEvent.click(within(item).getByRole('button', { name: 'Remove' }));
    expect(client.removeRule).toHaveBeenCalledWith('broken');
  });

  test('Allow reads makes a GET/HEAD rule for the origin, everywhere, from Settings', async () => {
    const { client, section } = renderRules();
    await fireEvent.input(within(section).getByLabelText('Allowed origin'), { target: { value: ' https://Docs.Example:443/some/page?x=1 ' } });
    await fireEvent.click(within(section).getByRole('button', { name: 'Allow reads' }));
    expect(client.addRule).toHaveBeenCalledWith({
      effect: 'allow',
      tool: 'http_request',
      match: [
        { kind: 'one_of', pointer: '/method', values: ['GET', 'HEAD'] },
        { kind: 'url', pointer: '/url', origin: 'https://docs.example' },
      ],
      scope: { kind: 'everywhere' },
      source: 'settings',
    });
    await vi.waitFor(() => expect((within(section).getByLabelText('Allowed origin') as HTMLInputElement).value).toBe(''));
  });

  test('Allow reads refuses what is not an origin, and shows why the engine refused one', async () => {
    const { client, section } = renderRules();
    const field = within(section).getByLabelText('Allowed origin');
    for (const typed of ['', 'docs.example', 'ftp://docs.example', 'javascript:alert(1)']) {
      await fireEvent.input(field, { target: { value: typed } });
      await fireEvent.click(within(section).getByRole('button', { name: 'Allow reads' }));
      expect(await within(section).findByText(/Enter an origin such as https:\/\/docs\.example\.com/)).toBeTruthy();
    }
    expect(client.addRule).not.toHaveBeenCalled();

    client.addRule.mockRejectedValueOnce(new Error('There is no tool named "http_request".'));
    await fireEvent.input(field, { target: { value: 'https://docs.example' } });
    await fireEvent.click(within(section).getByRole('button', { name: 'Allow reads' }));
    expect(await within(section).findByText('There is no tool named "http_request".')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
  });

  test('the general form adds a rule with one argument condition', async () => {
    const { client, section } = renderRules();
    await fireEvent.input(within(section).getByLabelText('Tool'), { target: { value: 'delete_*' } });
    await fireEvent.change(within(section).getByLabelText('Effect'), { target: { value: 'deny' } });
    await fireEvent.input(within(section).getByLabelText('Argument (optional)'), { target: { value: '/id' } });
    await fireEvent.change(within(section).getByLabelText('Condition'), { target: { value: 'one_of' } });
    await fireEvent.input(within(section).getByLabelText('Value'), { target: { value: 'n1, 42' } });
    await fireEvent.input(within(section).getByLabelText('Reason told to the model (optional)'), { target: { value: 'Keep these notes.' } });
    await fireEvent.click(within(section).getByRole('button', { name: 'Add rule' }));
    expect(client.addRule).toHaveBeenCalledWith({
      effect: 'deny',
      tool: 'delete_*',
      match: [{ kind: 'one_of', pointer: '/id', values: ['n1', 42] }],
      scope: { kind: 'everywhere' },
      source: 'settings',
      reason: 'Keep these notes.',
    });
  });

  test('the Ask for everything switch shows the stored state and sends the intent', async () => {
    await setAskForEverything(db, true);
    const { client, section } = renderRules();
    const toggle = within(section).getByRole('switch', { name: 'Ask for everything' }) as HTMLInputElement;
    await vi.waitFor(() => expect(toggle.checked).toBe(true));
    await fireEvent.click(toggle);
    expect(client.setAskForEverything).toHaveBeenCalledWith(false);
    // Shown as asked while it is being stored, and held still meanwhile.
    expect(toggle.checked).toBe(false);
    expect(toggle.disabled).toBe(true);
    await setAskForEverything(db, false);
    await vi.waitFor(() => expect(toggle.disabled).toBe(false));
    // From then on storage is the truth: another tab turns it back on.
    await setAskForEverything(db, true);
    await vi.waitFor(() => expect(toggle.checked).toBe(true));
  });

  test('a switch that could not be stored goes back, saying why', async () => {
    const { client, section } = renderRules();
    client.setAskForEverything.mockRejectedValueOnce(new Error('The browser refused to store more data.'));
    const toggle = within(section).getByRole('switch', { name: 'Ask for everything' }) as HTMLInputElement;
    await vi.waitFor(() => expect(toggle.disabled).toBe(false));
    await fireEvent.click(toggle);
    expect(await within(section).findByText('The browser refused to store more data.')).toBeTruthy();
    expect(toggle.checked).toBe(false);
  });
});
