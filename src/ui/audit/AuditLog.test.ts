// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuditLogFile } from '../../audit/audit-entry.ts';
import { checkJsonSchema } from '../../audit/testing/json-schema-check.ts';
import { CANARY_API_KEY, SCENARIO, seedAuditDb } from '../../audit/testing/seed-audit-db.ts';
import { dryRunEvent, seedRuleAndMcpRecords } from '../../audit/testing/seed-rule-and-mcp-records.ts';
import type { PausePoint } from '../../engine/records/pause-point.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import AuditLog from './AuditLog.svelte';

// Raw imports: under jsdom, import.meta.url is not a file URL.
import schemaText from '../../../docs/audit-log.schema.json?raw';
import tampered from '../../audit/fixtures/tampered-entry-v1.json?raw';
import { captureDownloads, type Download } from '../testing/capture-downloads.ts';

const schema: unknown = JSON.parse(schemaText);

let db: PausepointDb;
let downloads: Download[];

useTestDb((fresh) => (db = fresh));
beforeEach(async () => {
  await seedAuditDb(db);
  downloads = captureDownloads();
});
afterEach(async () => {
  vi.restoreAllMocks();
});

/** The entries' titles in order (a CSS query: role queries over hundreds of rows are slow in jsdom). */
function entryTitles(): string[] {
  const list = screen.getByRole('list', { name: 'Audit entries' });
  return [...list.querySelectorAll(':scope > li > article h3')].map((heading) => heading.textContent ?? '');
}

async function renderLog() {
  render(AuditLog, { props: { db } });
  expect(screen.getByRole('heading', { name: 'Audit log', level: 2 })).toBeTruthy();
  await waitFor(() => expect(entryTitles()).toHaveLength(11), SLOW);
}

/** What a browser does when a date is picked: `input`, then `change`. */
async function pickDate(label: string, value: string) {
  const field = screen.getByLabelText(label);
  await fireEvent.input(field, { target: { value } });
  await fireEvent.change(field);
}

function entryNamed(title: string): HTMLElement {
  return screen.getByRole('article', { name: title });
}

// Generous limits: fake IndexedDB, hashing and jsdom rendering share two cores with whatever else runs.
const SLOW = { timeout: 5_000 };

describe('AuditLog', { timeout: 30_000 }, () => {
  it('lists every pause point newest first with its decision, reason, device, execution and a link to its turn', async () => {
    await renderLog();
    expect(entryTitles()).toEqual([
      'Rotate the keys?',
      'Restart web-2',
      'Restart web-1',
      'Did “delete_files” finish?',
      'Book the hotel',
      'Pay the deposit',
      'Passenger details',
      'How to travel?',
      'Delete the customer list',
      'Send the follow-up',
      'Send 1,200 emails',
    ]);
    expect(screen.getByRole('status').textContent).toMatch(/Showing 11 of 11 entries/);

    const declined = entryNamed('Delete the customer list');
    expect(declined.textContent).toContain('Declined');
    expect(declined.textContent).toContain('We still need it for the autumn campaign');
    expect(declined.textContent).toContain('Not run');
    expect(within(declined).getByRole('link').getAttribute('href')).toBe(`#/c/conv-mail/card/${SCENARIO.declined}`);

    const restart = entryNamed('Restart web-2');
    expect(restart.textContent).toContain('Failed (3 attempts)');
    expect(restart.textContent).toContain('Firefox on the laptop');

    expect(entryNamed('How to travel?').textContent).toContain('Chose “Train”');
    expect(entryNamed('Passenger details').textContent).toContain('Submitted the form');
    expect(entryNamed('Pay the deposit').textContent).toContain('Expired (timed out)');
    expect(entryNamed('Book the hotel').textContent).toContain('when the conversation moved on');
    expect(entryNamed('Rotate the keys?').textContent).toContain('Awaiting decision');
  });

  it('shows what an edit changed between the proposed and the approved payload', async () => {
    await renderLog();
    const edited = entryNamed('Send the follow-up');
    expect(edited.textContent).toContain('Approved with edits');
    expect(edited.textContent).toContain('Chrome on the phone');
    const table = within(edited).getByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.trim()).join(' '));
    expect(rows).toContain('recipients 1200 300');
    expect(rows).toContain('cc "boss@example.com" (removed)');
    expect(rows).toContain('subject "Spring news" "Spring news (EU)"');
  });

  it('loads the tool call, decision message and tool result of an entry when asked', async () => {
    await renderLog();
    const approved = entryNamed('Send 1,200 emails');
    const messages = within(approved).getByText('Messages').closest('details')!;
    messages.open = true;
    await fireEvent(messages, new Event('toggle'));
    await waitFor(() => expect(messages.textContent).toContain('Sent 1,200 emails.'), SLOW);
    expect(messages.textContent).toContain('Approval approval: approve');
    expect(messages.textContent).toContain('"recipients":1200');
  });

  it('filters by status, kind, tool, conversation, date and text', async () => {
    await renderLog();
    await fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'expired' } });
    await waitFor(() => expect(entryTitles()).toEqual(['Book the hotel', 'Pay the deposit']), SLOW);

    await fireEvent.change(screen.getByLabelText('Status'), { target: { value: '' } });
    await fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'choice' } });
    await waitFor(() => expect(entryTitles()).toEqual(['Did “delete_files” finish?', 'How to travel?']), SLOW);

    await fireEvent.change(screen.getByLabelText('Kind'), { target: { value: '' } });
    const tool = screen.getByLabelText('Tool');
    await fireEvent.input(tool, { target: { value: 'send_email' } });
    await fireEvent.change(tool);
    await waitFor(() => expect(entryTitles()).toEqual(['Send the follow-up', 'Send 1,200 emails']), SLOW);

    await fireEvent.input(tool, { target: { value: '' } });
    await fireEvent.change(tool);
    await waitFor(() => expect(screen.getByRole('option', { name: 'Server cleanup' })).toBeTruthy(), SLOW);
    await fireEvent.change(screen.getByLabelText('Conversation'), { target: { value: 'conv-ops' } });
    await waitFor(() => expect(entryTitles()).toEqual(['Rotate the keys?', 'Restart web-2', 'Restart web-1', 'Did “delete_files” finish?']), SLOW);

    await fireEvent.change(screen.getByLabelText('Conversation'), { target: { value: '' } });
    // The seeded day is 2025-01-15 (UTC); a range ending the day before finds nothing.
    await pickDate('Created to', '2025-01-13');
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/No entries match/), SLOW);
    await pickDate('Created to', '');
    await pickDate('Created from', '2025-01-13');
    await waitFor(() => expect(entryTitles()).toHaveLength(11), SLOW);

    await fireEvent.input(screen.getByLabelText('Search'), { target: { value: 'autumn' } });
    await waitFor(() => expect(entryTitles()).toEqual(['Delete the customer list']), SLOW);
    expect(screen.getByRole('status').textContent).toMatch(/1 matching entry/);
  });

  it('shows 100 rows at a time and loads more on request', async () => {
    const base = (await db.pausePoints.get(SCENARIO.pending))!;
    const many: PausePoint[] = Array.from({ length: 230 }, (_, index) => ({ ...base, id: `pp-bulk-${index}`, title: `Bulk ${index}`, createdAt: base.createdAt + 1 + index }));
    await db.pausePoints.bulkPut(many);
    render(AuditLog, { props: { db } });
    await waitFor(() => expect(entryTitles()).toHaveLength(100), SLOW);
    expect(entryTitles()[0]).toBe('Bulk 229');
    await fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(entryTitles()).toHaveLength(200), SLOW);
    await fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(entryTitles()).toHaveLength(241), SLOW);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('Export audit log downloads a file that validates and verifies, without the API key', async () => {
    await renderLog();
    await fireEvent.click(screen.getByRole('button', { name: 'Export audit log' }));
    await waitFor(() => expect(downloads).toHaveLength(1), SLOW);
    const [download] = downloads;
    expect(download!.name).toMatch(/^pausepoint-audit-\d{4}-\d{2}-\d{2}\.json$/);
    const text = await download!.blob.text();
    expect(text).not.toContain(CANARY_API_KEY);
    const file: unknown = JSON.parse(text);
    expect(checkJsonSchema(schema, file)).toEqual([]);
    expect(AuditLogFile.parse(file).entry_count).toBe(11);
    await waitFor(() => expect(screen.getByText(/Exported 11 entries to pausepoint-audit-/)).toBeTruthy(), SLOW);
    expect(screen.getByText(/Exported 11 entries/).textContent).toContain(AuditLogFile.parse(file).head_hash);

    // The same file, chosen under Verify audit file.
    const input = screen.getByLabelText('Audit file to verify') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [new File([text], download!.name, { type: 'application/json' })], configurable: true });
    await fireEvent.change(input);
    // The seeded decisions were stored unsigned (as those decided before decisions were signed): the verifier says so.
    const verified = /^Verified: 11 entries, head hash [0-9a-f]{64}\. Signatures: 0 decisions signed by a device this file lists; 10 decisions unsigned, made before decisions were signed\.$/;
    await waitFor(() => expect(screen.getByText(verified)).toBeTruthy(), SLOW);
  });

  it('exports only what the filters select and shows export progress', async () => {
    await renderLog();
    await fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'pending' } });
    await waitFor(() => expect(entryTitles()).toEqual(['Rotate the keys?']), SLOW);
    await fireEvent.click(screen.getByRole('button', { name: 'Export audit log' }));
    expect(screen.getByRole('progressbar', { name: 'Export progress' })).toBeTruthy();
    await waitFor(() => expect(downloads).toHaveLength(1), SLOW);
    const file = AuditLogFile.parse(JSON.parse(await downloads[0]!.blob.text()));
    expect(file.entries.map((entry) => entry.id)).toEqual([SCENARIO.pending]);
    expect(file.metadata.filters.status).toBe('pending');
  });

  it('Verify audit file names the first entry that does not match', async () => {
    await renderLog();
    expect(screen.getByRole('button', { name: 'Verify audit file' })).toBeTruthy();
    const input = screen.getByLabelText('Audit file to verify') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [new File([tampered], 'audit.json')], configurable: true });
    await fireEvent.change(input);
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert.textContent).toMatch(/Not verified \(audit\.json\): Entry 3 \(pp-03-declined\) does not match its hash/);
  });

  it('lists rule changes, dry runs and changed tools beside the decisions, by time, and filters by kind of entry and by who decided', async () => {
    await seedRuleAndMcpRecords(db);
    await db.auditEvents.put(dryRunEvent());
    await db.pausePoints.update(SCENARIO.approved, { decidedBy: { tabId: 't9', deviceId: 'phone', label: 'Phone', via: 'sync' } });
    render(AuditLog, { props: { db } });
    await waitFor(() => expect(entryTitles()).toContain('Tool definition changed: echo'), SLOW);
    const titles = entryTitles();
    expect(titles.slice(0, 8)).toEqual([
      'Rule removed',
      'Call echo on Example tools',
      'Tool definition changed: echo',
      'Denied by rule: Deny delete_note — everywhere',
      'Rule created',
      'Allowed by rule: Allow http_request when method is GET — everywhere',
      'Dry run: would have asked about http_request',
      'Rule created',
    ]);
    expect(titles).toContain('Dry run: would have asked about http_request');
    expect(entryNamed('Tool definition changed: echo').textContent).toContain('Example tools');
    expect(screen.getAllByRole('article', { name: 'Rule created' })[0]!.textContent).toContain('Deny delete_note');

    await fireEvent.change(screen.getByLabelText('Entry type'), { target: { value: 'rule_change' } });
    await waitFor(() => expect(entryTitles()).toEqual(['Rule removed', 'Rule created', 'Rule created']), SLOW);

    await fireEvent.change(screen.getByLabelText('Entry type'), { target: { value: '' } });
    await fireEvent.change(screen.getByLabelText('Decided by'), { target: { value: 'rule' } });
    await waitFor(() => expect(entryTitles()).toHaveLength(3), SLOW);
    expect(entryTitles()).toContain('Dry run: would have asked about http_request');
    expect(entryTitles().filter((title) => !title.startsWith('Dry run'))).toHaveLength(2);

    await fireEvent.change(screen.getByLabelText('Decided by'), { target: { value: 'device' } });
    await waitFor(() => expect(entryTitles()).toHaveLength(1), SLOW);
    expect(screen.getByRole('article', { name: entryTitles()[0]! }).textContent).toContain('Phone');
  });
});
