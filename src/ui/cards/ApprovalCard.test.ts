// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/svelte';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import type { PausePoint } from '../../engine/records/index.ts';
import { decisionView } from '../../engine/decision-view.ts';
import { viewHash } from '../../engine/view-hash.ts';
import { bound } from '../testing/bound-decision.ts';
import { pausePoint } from '../testing/fake-app.svelte.ts';
import { loadCardCode, renderCard } from '../testing/render-approval-card.ts';

beforeAll(loadCardCode);

describe('ApprovalCard — approval', () => {
  test('is a region named by its title, with sanitised markdown and a kind badge', () => {
    renderCard(pausePoint({ description: 'Hi <img src=x onerror="alert(1)"> **bold**' }));
    const card = screen.getByRole('region', { name: 'Send the newsletter' });
    expect(within(card).getByText('bold').tagName).toBe('STRONG');
    expect(card.querySelector('img')).toBeNull();
    expect(within(card).getByText('Approval')).toBeTruthy();
  });

  test('Approve sends an approve decision with the reason as reply', async () => {
    const { client } = renderCard(pausePoint());
    await fireEvent.input(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'Go ahead' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'approve', reply: 'Go ahead' })));
  });

  test('Decline sends the reason', async () => {
    const { client } = renderCard(pausePoint());
    await fireEvent.input(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'Too many recipients' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'decline', reason: 'Too many recipients' })));
  });

  test('shows what the model will receive', async () => {
    renderCard(pausePoint());
    const summary = screen.getByText('What the model will receive');
    await fireEvent.click(summary);
    expect(await screen.findByText('Approval approval: approve')).toBeTruthy();
    expect(screen.getByText('Approval approval: decline')).toBeTruthy();
  });
});

describe('ApprovalCard — payload', () => {
  const withPayload = pausePoint({ origin: 'gate', toolName: 'http_request', payload: { method: 'POST', url: 'https://x.test/a' } });

  test('approving unchanged sends no editedPayload', async () => {
    const { client } = renderCard(withPayload);
    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'approve' })));
  });

  test('an edited payload shows its changes and is sent as editedPayload', async () => {
    const { client } = renderCard(withPayload);
    // The editor loads on demand.
    const editor = await screen.findByRole('textbox', { name: 'Payload' });
    await fireEvent.input(editor, { target: { value: '{"method":"POST","url":"https://x.test/b"}' } });
    const diff = screen.getByRole('group', { name: 'Your changes to the proposed payload' });
    expect(within(diff).getByText('url')).toBeTruthy();
    expect(diff.textContent).toContain('"https://x.test/b"');
    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'approve', editedPayload: { method: 'POST', url: 'https://x.test/b' } })));
  });

  test('point 1: the card shows its decision view — the arguments as they will run, the edit in place — and sends the hash of that view', async () => {
    const { client } = renderCard(withPayload);
    const args = screen.getByRole('region', { name: 'Send the newsletter' }).querySelector('dl.view-arguments')!;
    expect(args.textContent).toContain('"https://x.test/a"');
    const editor = await screen.findByRole('textbox', { name: 'Payload' });
    const edit = { method: 'POST', url: 'https://x.test/b' };
    await fireEvent.input(editor, { target: { value: JSON.stringify(edit) } });
    expect(screen.getByText('Arguments as they will run (your edit)')).toBeTruthy();
    expect(args.textContent).toContain('"https://x.test/b"');
    expect(args.textContent).not.toContain('"https://x.test/a"');
    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    const shown = viewHash(decisionView({ pause: withPayload, edit }));
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', { type: 'approve', editedPayload: edit, viewHash: shown }));
  });

  test('point 1: a decision the engine refuses because the card changed says so: “This card changed — look again”', async () => {
    const { client } = renderCard(withPayload);
    client.decide.mockResolvedValueOnce({ outcome: 'changed' });
    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This card changed — look again');
  });

  test('point 1: control characters, U+2028 and bidi overrides in the title and arguments are shown escaped', () => {
    renderCard(pausePoint({ origin: 'gate', toolName: 'pay', title: 'Pay \u202eeve', payload: { to: 'a\u2028b' } }));
    expect(screen.getByRole('region', { name: 'Pay \\u202eeve' })).toBeTruthy();
    expect(screen.getByText('"a\\u2028b"')).toBeTruthy();
  });

  test('invalid JSON shows an error and disables Approve', async () => {
    renderCard(withPayload);
    const editor = await screen.findByRole('textbox', { name: 'Payload' });
    await fireEvent.input(editor, { target: { value: '{"method": ' } });
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/Not valid JSON/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('ApprovalCard — choice', () => {
  test('one button per option, plus Decline; choosing sends the option', async () => {
    const { client } = renderCard(pausePoint({ kind: 'choice', options: ['Tuesday', 'Wednesday'] }));
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Wednesday' }));
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'choose', option: 'Wednesday' })));
  });

  test('an unknown outcome card offers its options and no Decline', () => {
    renderCard(pausePoint({ kind: 'choice', origin: 'unknown_outcome', options: ['Run again', 'Treat as done', 'Skip'] }));
    expect(screen.getByRole('button', { name: 'Run again' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Decline' })).toBeNull();
    expect(screen.getByText('Outcome unknown')).toBeTruthy();
  });
});

describe('ApprovalCard — data entry', () => {
  const form = pausePoint({
    kind: 'data_entry',
    payload: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Full name' },
        seats: { type: 'integer', title: 'Seats' },
        tier: { type: 'string', title: 'Tier', enum: ['basic', 'pro'] },
        invoice: { type: 'boolean', title: 'Send invoice' },
      },
      required: ['name', 'seats'],
    },
  });

  test('required fields block Submit and are reported', async () => {
    const { client } = renderCard(form);
    // The fields load on demand.
    await screen.findByRole('textbox', { name: /Full name/ });
    await fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(client.decide).not.toHaveBeenCalled();
    expect(screen.getByText('Full name is required.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /Full name/ }).getAttribute('aria-invalid')).toBe('true');
  });

  test('submits coerced values', async () => {
    const { client } = renderCard(form);
    await fireEvent.input(await screen.findByRole('textbox', { name: /Full name/ }), { target: { value: 'Ada' } });
    await fireEvent.input(screen.getByRole('spinbutton', { name: /Seats/ }), { target: { value: '3' } });
    await fireEvent.change(screen.getByRole('combobox', { name: 'Tier' }), { target: { value: 'pro' } });
    await fireEvent.click(screen.getByRole('checkbox', { name: 'Send invoice' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'submit', data: { name: 'Ada', seats: 3, tier: 'pro', invoice: true } })));
  });

  test('a Submit pressed before the form has loaded waits for it, and decides as the form would', async () => {
    // The form's draft loads on demand with its fields: the press must neither be lost nor skip the check.
    const { client } = renderCard(pausePoint({ kind: 'data_entry', payload: { city: 'Oslo', guests: 2 } }));
    expect(screen.queryByRole('textbox', { name: 'city' })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'submit', data: { city: 'Oslo', guests: 2 } })));
  });

  test('a plain-object payload gives one prefilled field per key', async () => {
    renderCard(pausePoint({ kind: 'data_entry', payload: { city: 'Oslo', guests: 2 } }));
    expect(((await screen.findByRole('textbox', { name: 'city' })) as HTMLInputElement).value).toBe('Oslo');
    expect((screen.getByRole('spinbutton', { name: 'guests' }) as HTMLInputElement).value).toBe('2');
  });
});

describe('ApprovalCard — after the decision', () => {
  test('a decided card shows the outcome, the time and who decided, without buttons', async () => {
    renderCard(
      pausePoint({
        status: 'resolved',
        resolution: 'decline',
        reason: 'Not now',
        resolvedAt: 1_700_000_100_000,
        decidedBy: { tabId: 'tab-1', deviceId: 'd1', label: 'Chromium on Linux' },
      }),
    );
    expect(screen.getByText('Declined')).toBeTruthy();
    expect(screen.getByText(/Not now/)).toBeTruthy();
    expect(screen.getByText(/in this tab/)).toBeTruthy();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    const time = document.querySelector('time');
    expect(time?.getAttribute('datetime')).toBe(new Date(1_700_000_100_000).toISOString());
    // Written in the reader's locale once the first frame is painted.
    await vi.waitFor(() => expect(time?.textContent).toBe(new Date(1_700_000_100_000).toLocaleString()));
  });

  test('a choice decided on another device names it', () => {
    renderCard(
      pausePoint({
        kind: 'choice',
        options: ['A', 'B'],
        status: 'resolved',
        resolution: 'B',
        resolvedAt: 1_700_000_100_000,
        decidedBy: { tabId: 'other', deviceId: 'd2', label: 'Firefox on a phone' },
      }),
    );
    expect(screen.getByText('Chose “B”')).toBeTruthy();
    expect(screen.getByText(/Firefox on a phone/)).toBeTruthy();
  });

  test('already_decided says so and removes the buttons', async () => {
    const { client } = renderCard(pausePoint());
    client.decide.mockResolvedValueOnce({ outcome: 'already_decided', status: 'resolved' });
    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Already decided in another tab')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  test('already_decided by another device, whose decision arrived through sync first, names that device', async () => {
    const { client } = renderCard(pausePoint());
    client.decide.mockResolvedValueOnce({ outcome: 'already_decided', status: 'resolved', decidedBy: { tabId: 't9', deviceId: 'd2', label: 'Phone', via: 'sync' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Decided on Phone first')).toBeTruthy();
    expect(screen.queryByText('Already decided in another tab')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  test('a decision that came after the expiry says the card expired, not that another tab decided', async () => {
    const { client, rerender } = renderCard(pausePoint({ expiresAt: 1_700_000_060_000 }));
    client.decide.mockResolvedValueOnce({ outcome: 'expired' });
    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    const note = 'This request expired before your decision, so your decision was not recorded.';
    expect(await screen.findByText(note)).toBeTruthy();
    expect(screen.queryByText('Already decided in another tab')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();

    // The live record follows, expired in the decision's transaction.
    await rerender({ pause: pausePoint({ status: 'expired', expiredReason: 'timeout', resolvedAt: 1_700_000_061_000, expiresAt: 1_700_000_060_000 }) });
    expect(screen.getByText('Expired')).toBeTruthy();
    expect(screen.getByText(note)).toBeTruthy();
    expect(screen.queryByText(/another tab/)).toBeNull();
  });

  test('already_decided with an expired card says it expired', async () => {
    const { client } = renderCard(pausePoint());
    client.decide.mockResolvedValueOnce({ outcome: 'already_decided', status: 'expired' });
    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('This request expired before your decision, so your decision was not recorded.')).toBeTruthy();
    expect(screen.queryByText('Already decided in another tab')).toBeNull();
  });

  test('a card decided elsewhere while shown updates and says so', async () => {
    const { rerender } = renderCard(pausePoint());
    await rerender({
      pause: pausePoint({
        status: 'resolved',
        resolution: 'approve',
        resolvedAt: 1_700_000_100_000,
        decidedBy: { tabId: 'tab-9', deviceId: 'd1', label: 'Another tab' },
      }),
    });
    expect(screen.getByText('Approved')).toBeTruthy();
    expect(screen.getByText('Decided in another tab')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  test('an invalid decision shows the engine’s message', async () => {
    const { client } = renderCard(pausePoint());
    client.decide.mockResolvedValueOnce({ outcome: 'invalid', message: 'The edited arguments do not fit.' });
    await fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The edited arguments do not fit.');
    expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
  });

  test('an expired card says Expired and why', () => {
    renderCard(pausePoint({ status: 'expired', expiredReason: 'timeout', resolvedAt: 1_700_000_100_000 }));
    expect(screen.getByText('Expired')).toBeTruthy();
    expect(screen.getByText(/Timed out/)).toBeTruthy();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });
});

describe('ApprovalCard — approval rules', () => {
  const byRule = (over: Partial<PausePoint>) =>
    pausePoint({
      origin: 'rule',
      status: 'resolved',
      resolution: 'approve',
      resolvedAt: 5_000,
      toolName: 'http_request',
      title: 'Allowed by rule: Allow http_request when method is GET — everywhere',
      rule: { id: 'r1', effect: 'allow', text: 'Allow http_request when method is GET — everywhere' },
      ...over,
    });

  test('a call a rule allowed is a quiet decided line, not a card: nothing to decide', () => {
    renderCard(byRule({}));
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    const line = document.querySelector('.rule-decision')!;
    expect(line.textContent?.replace(/\s+/g, ' ')).toMatch(/^Allowed by rule: Allow http_request when method is GET — everywhere · /);
  });

  test('a call a rule denied says so, with the rule’s reason', () => {
    renderCard(byRule({ resolution: 'decline', reason: 'Not this API', rule: { id: 'r2', effect: 'deny', text: 'Deny http_request — everywhere' } }));
    const line = document.querySelector('.rule-decision')!.textContent?.replace(/\s+/g, ' ');
    expect(line).toMatch(/^Denied by rule: Deny http_request — everywhere — Not this API · /);
  });

  test('a card an ask rule raised says which rule asked, and is decided as usual', async () => {
    const { client } = renderCard(pausePoint({ origin: 'gate', title: 'Run save_note?', rule: { id: 'r3', effect: 'ask', text: 'Ask before save_note — everywhere' } }));
    const card = screen.getByRole('region', { name: 'Run save_note?' });
    expect(within(card).getByText('Asked because of your rule: Ask before save_note — everywhere')).toBeTruthy();
    await fireEvent.click(within(card).getByRole('button', { name: 'Approve' }));
    await vi.waitFor(() => expect(client.decide).toHaveBeenCalledWith('p1', bound({ type: 'approve' })));
  });

  test('rule text is shown as text, never as markup', () => {
    renderCard(byRule({ rule: { id: 'r1', effect: 'allow', text: 'Allow x when to is <img src=x onerror=alert(1)>' } }));
    expect(document.querySelector('img')).toBeNull();
    expect(document.querySelector('.rule-decision')?.textContent).toContain('<img src=x onerror=alert(1)>');
  });
});

describe('ApprovalCard — rules from a gate card', () => {
  const post = () =>
    pausePoint({ origin: 'gate', toolName: 'http_request', conversationId: 'c1', title: 'POST to x.test', payload: { method: 'POST', url: 'https://x.test/a' } });

  test('says what the rule allows, and Always allow sends the rule with the approval', async () => {
    const { client } = renderCard(post());
    const card = screen.getByRole('region', { name: 'POST to x.test' });
    // Said once the rule's describer has loaded (on demand); the buttons work before it.
    expect(await within(card).findByText(/^What this allows: Allow http_request when method is POST and url is on https:\/\/x\.test/)).toBeTruthy();
    await fireEvent.click(within(card).getByRole('button', { name: 'Always allow' }));
    await vi.waitFor(() => expect(client.approveWithRule).toHaveBeenCalledWith('p1', bound({ type: 'approve' }), expect.objectContaining({ tool: 'http_request', scope: { kind: 'everywhere' }, source: 'card' })));
    expect(client.decide).not.toHaveBeenCalled();
  });

  test('previews what Always allow would have decided, asked of the worker only once opened', async () => {
    const { client } = renderCard(post());
    client.previewRule.mockResolvedValue({ decided: 4, of: 9, examples: [] });
    const card = screen.getByRole('region', { name: 'POST to x.test' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.previewRule).not.toHaveBeenCalled();
    const summary = within(card).getByText('What would “Always allow” have decided?');
    await fireEvent.click(summary);
    expect(await within(card).findByText('This rule would have decided 4 of your last 9 calls.', undefined, { timeout: 2_000 })).toBeTruthy();
    expect(client.previewRule).toHaveBeenCalledWith(expect.objectContaining({ tool: 'http_request', scope: { kind: 'everywhere' } }), expect.any(AbortSignal));
  });

  test('says which dry-run rules would have decided the call', () => {
    renderCard({ ...post(), dryRuns: [{ id: 'r9', effect: 'allow', text: 'Allow http_request — everywhere' }] });
    const card = screen.getByRole('region', { name: 'POST to x.test' });
    expect(within(card).getByText('Rule “Allow http_request — everywhere” would allow this (dry run: it decided nothing).')).toBeTruthy();
  });

  test('Allow in this conversation scopes the rule to the card’s conversation', async () => {
    const { client } = renderCard(post());
    await fireEvent.click(screen.getByRole('button', { name: 'Allow in this conversation' }));
    await vi.waitFor(() => expect(client.approveWithRule).toHaveBeenCalledWith('p1', bound({ type: 'approve' }), expect.objectContaining({ scope: { kind: 'conversation', conversationId: 'c1' } })));
  });

  test('an irreversible call offers no Always allow by default; the model’s own cards offer no rules', () => {
    renderCard({ ...post(), irreversible: true });
    expect(screen.getByRole('button', { name: 'Allow in this conversation' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Always allow' })).toBeNull();
    renderCard(pausePoint({ origin: 'model', title: 'Asked by the model' }));
    const asked = screen.getByRole('region', { name: 'Asked by the model' });
    expect(within(asked).queryByRole('button', { name: 'Allow in this conversation' })).toBeNull();
  });
});
