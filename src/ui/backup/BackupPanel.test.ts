// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { databaseSnapshot } from '../../backup/testing/database-snapshot.ts';
import { SEED_API_KEY, seedDatabase } from '../../backup/testing/seed-database.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { restoreBackupFile, type RestoreProgress } from '../../backup/restore-backup.ts';
import type { RunningRestore } from '../../conversation-file/import-client.ts';
import BackupPanel from './BackupPanel.svelte';
import { captureDownloads, type Download } from '../testing/capture-downloads.ts';

let db: PausepointDb;
let downloads: Download[];

function stubStorage(storage: Partial<StorageManager> | undefined) {
  Object.defineProperty(navigator, 'storage', { value: storage, configurable: true });
}

useTestDb((fresh) => (db = fresh));
beforeEach(async () => {
  downloads = captureDownloads();
  stubStorage({ persisted: async () => false, persist: vi.fn(async () => true), estimate: async () => ({ usage: 5_200_000, quota: 1_000_000_000 }) });
});
afterEach(async () => {
  vi.restoreAllMocks();
  stubStorage(undefined);
});

/**
 * The restore the panel starts, run here instead of in the import worker (jsdom has no module
 * workers), on the file's bytes as Node's Blob (jsdom's has no `stream()`).
 */
function inProcess(file: File, onProgress: (progress: RestoreProgress) => void): RunningRestore {
  const controller = new AbortController();
  // The file's size as it says, its bytes read only when the restore reads the stream.
  const blob = Object.defineProperties(new NodeBlob([]), {
    size: { value: file.size },
    stream: { value: () => new ReadableStream({ start: async (c) => (c.enqueue(new TextEncoder().encode(await file.text())), c.close()) }) },
  }) as Blob;
  return { result: restoreBackupFile(db, blob, { onProgress, signal: controller.signal }), cancel: () => controller.abort() };
}

function chooseFile(text: string, name = 'pausepoint-backup.json') {
  const input = screen.getByLabelText('Restore from backup file') as HTMLInputElement;
  const file = new File([text], name, { type: 'application/json' });
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  return fireEvent.change(input);
}

describe('BackupPanel storage status', () => {
  it('shows persistence, usage and available space, and a nudge when not granted', async () => {
    render(BackupPanel, { props: { db, startRestore: inProcess } });
    expect(screen.getByRole('heading', { name: 'Backup and storage' })).toBeTruthy();
    expect(await screen.findByText('not granted')).toBeTruthy();
    expect(screen.getByText('Used: 5.2 MB; available: 994.8 MB')).toBeTruthy();
    expect(screen.getByText(/Make a backup now and then/)).toBeTruthy();
  });

  it('Keep data persistent asks the browser and shows the new state', async () => {
    let granted = false;
    const persist = vi.fn(async () => (granted = true));
    stubStorage({ persisted: async () => granted, persist, estimate: async () => ({ usage: 0, quota: 10 }) });
    render(BackupPanel, { props: { db, startRestore: inProcess } });
    await fireEvent.click(await screen.findByRole('button', { name: 'Keep data persistent' }));
    expect(persist).toHaveBeenCalledOnce();
    expect(await screen.findByText('granted')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Keep data persistent' })).toBeNull();
    expect(screen.queryByText(/Make a backup now and then/)).toBeNull();
  });

  it('says so when the browser declines', async () => {
    stubStorage({ persisted: async () => false, persist: async () => false });
    render(BackupPanel, { props: { db, startRestore: inProcess } });
    await fireEvent.click(await screen.findByRole('button', { name: 'Keep data persistent' }));
    expect(await screen.findByText(/The browser declined for now/)).toBeTruthy();
  });

  it('works without the storage API', async () => {
    stubStorage(undefined);
    render(BackupPanel, { props: { db, startRestore: inProcess } });
    expect(await screen.findByText('not granted')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Keep data persistent' })).toBeNull();
  });
});

describe('BackupPanel backup and restore', () => {
  it('Backup downloads a dated file without the API key', async () => {
    await seedDatabase(db);
    render(BackupPanel, { props: { db, startRestore: inProcess } });
    await fireEvent.click(screen.getByRole('button', { name: 'Backup' }));

    const status = await screen.findByRole('status');
    expect(status.textContent).toMatch(/^Backup saved as pausepoint-backup-\d{4}-\d{2}-\d{2}\.json: 2 conversations, 6 messages, 2 approvals\.$/);
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.name).toMatch(/^pausepoint-backup-\d{4}-\d{2}-\d{2}\.json$/);
    const text = await downloads[0]!.blob.text();
    expect(JSON.parse(text)).toMatchObject({ format: 'pausepoint.backup', version: 3 });
    expect(text).not.toContain(SEED_API_KEY);
  });

  it('Restore brings back what the backup holds and says what it did', async () => {
    await seedDatabase(db, { messagesPerConversation: 4 });
    render(BackupPanel, { props: { db, startRestore: inProcess } });
    await fireEvent.click(screen.getByRole('button', { name: 'Backup' }));
    await screen.findByRole('status');
    const text = await downloads[0]!.blob.text();
    const before = await databaseSnapshot(db);
    await Promise.all([db.conversations.clear(), db.messages.clear(), db.pausePoints.clear(), db.ledger.clear(), db.notes.clear(), db.approvalRules.clear()]);

    await chooseFile(text);

    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Restored 2 conversations (8 messages, 2 approvals), 1 note and 2 approval rules. ' +
          // The backup's paused conversation: its pending card comes back expired through the inert path.
          '1 conversation was working when the backup was made; nothing runs in it until you press Continue. ' +
          '1 allow rule came back switched off, as a backup never grants anything by itself: turn it on in Settings if you still want it.',
      ),
    );
    const { pausePoints, approvalRules, conversations, ledger, ...rest } = await databaseSnapshot(db);
    const { pausePoints: _cards, approvalRules: _rules, conversations: _conversations, ledger: ledgerBefore, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    // Through the one inert path: the paused conversation comes back interrupted, its pending card expired,
    // the decided card marked as decided elsewhere; a ledger entry no message of the file links to its call
    // keeps its outcome under a call id that names nothing here.
    expect(conversations).toMatchObject([{ id: 'c1', state: { kind: 'error', code: 'interrupted' } }, { id: 'c2' }]);
    expect(pausePoints).toMatchObject([
      { id: 'p1', status: 'expired', restored: true },
      { id: 'p2', status: 'resolved', restored: true },
    ]);
    expect(ledger).toHaveLength(ledgerBefore!.length);
    expect(ledger).toMatchObject([{ conversationId: 'c2', status: 'succeeded', result: 'Sent.' }]);
    expect(approvalRules).toMatchObject([
      { id: 'r1', effect: 'allow', enabled: false, source: 'backup' },
      { id: 'r2', effect: 'deny', enabled: true, source: 'backup' },
    ]);
  });

  it('point 11: the summary lists the limits and prices it kept from this browser', async () => {
    await seedDatabase(db);
    render(BackupPanel, { props: { db, startRestore: inProcess } });
    await fireEvent.click(screen.getByRole('button', { name: 'Backup' }));
    await screen.findByRole('status');
    const file = JSON.parse(await downloads[0]!.blob.text());
    // Crafted: a model the backup switches to, no token limit, answers of a million tokens.
    file.data.settings = { ...file.data.settings, model: 'gpt-4o', maxTokens: 1_000_000 };
    const settings = await db.settings.get('settings');
    await db.settings.put({ key: 'settings', value: { ...(settings!.value as object), tokenLimit: 20_000 } });

    await chooseFile(JSON.stringify(file));

    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toContain(
        "A backup never loosens a limit or lowers a price, so this browser's stricter ones were kept: " +
          'Token limit per conversation 20,000 (the backup had none) and Max tokens per answer 4,096 (the backup had 1,000,000). Change them in Settings if you mean to.',
      ),
    );
    expect((await db.settings.get('settings'))?.value).toMatchObject({ model: 'gpt-4o', tokenLimit: 20_000 });
    expect((await db.settings.get('settings'))?.value).not.toHaveProperty('maxTokens');
  });

  it('says a backup of any size is read, and refuses, unread, one this browser has no room for, with a clear message', async () => {
    await seedDatabase(db);
    const before = await databaseSnapshot(db);
    stubStorage({ persisted: async () => false, persist: async () => true, estimate: async () => ({ usage: 999_990_000, quota: 1_000_000_000 }) });
    render(BackupPanel, { props: { db, startRestore: inProcess } });
    expect(screen.getByText(/A backup of any size is read as a stream, when this browser\s+has room for it/)).toBeTruthy();

    const file = new File(['{}'], 'pausepoint-backup-2026-01-31.json', { type: 'application/json' });
    Object.defineProperty(file, 'size', { value: 50_000_001 });
    const read = vi.fn(async () => '{}');
    for (const method of ['text', 'stream', 'arrayBuffer']) Object.defineProperty(file, method, { value: read });
    const input = screen.getByLabelText('Restore from backup file') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    await fireEvent.change(input);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'This backup is 50.0 MB. Restoring it needs about 100.0 MB of free storage (its records are set aside while they are checked, then written), and this browser has 0.0 MB free for Pausepoint. Free space on this device, or delete conversations you no longer need here, then restore again. The file was not read. Nothing was restored.',
    );
    expect(read).not.toHaveBeenCalled();
    expect(await databaseSnapshot(db)).toEqual(before);
  });

  it('a corrupt file is refused with a clear message and nothing changes', async () => {
    await seedDatabase(db);
    const before = await databaseSnapshot(db);
    render(BackupPanel, { props: { db, startRestore: inProcess } });

    await chooseFile('{"format":"pausepoint.backup","version":1,"createdAt":"2026-01');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^This file is not a readable backup: it is not valid JSON, or it was cut off/);
    expect(alert.textContent).toMatch(/Nothing was restored\.$/);
    expect(await databaseSnapshot(db)).toEqual(before);
    expect((screen.getByLabelText('Restore from backup file') as HTMLInputElement).value).toBe('');
  });
});
