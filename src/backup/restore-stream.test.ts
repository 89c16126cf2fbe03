import 'fake-indexeddb/auto';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { BackupError } from './backup-error.ts';
import { describeRestore } from './describe-restore.ts';
import { restoreBackupFile, type RestoreResult } from './restore-backup.ts';
import { databaseSnapshot } from './testing/database-snapshot.ts';
import { syntheticBackupBlob } from './testing/synthetic-backup-blob.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

const SMALL = { conversations: 450, messagesPerConversation: 3, textBytes: 100, attachmentBytes: 200 };

/** Every stored conversation is whole: all its messages, its card, its ledger entry and its file. */
async function expectWholeConversations(perConversation: number): Promise<number> {
  const conversations = await db.conversations.toArray();
  for (const conversation of conversations) {
    expect(await db.messages.where('conversationId').equals(conversation.id).count()).toBe(perConversation);
    expect(await db.pausePoints.where('conversationId').equals(conversation.id).count()).toBe(1);
    expect(await db.ledger.where('conversationId').equals(conversation.id).count()).toBe(1);
    expect(await db.attachments.get(`${conversation.id}-a`)).toBeDefined();
  }
  expect(await db.messages.count()).toBe(conversations.length * perConversation);
  expect(await db.attachments.count()).toBe(conversations.length);
  return conversations.length;
}

/** A Blob that says whether anything read it. */
class WatchedBlob extends Blob {
  read = false;
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    this.read = true;
    return super.stream();
  }
}

describe('Restore from backup file, as a stream', () => {
  it('restores a backup over 50 MB, files and all, in a Node whose heap is capped below the file’s size', async () => {
    const script = fileURLToPath(new URL('./testing/restore-under-heap-limit.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--max-old-space-size=40', '--import', 'tsx', script, '40', '1200000'], { maxBuffer: 1 << 20 });
    const { size, result, stored } = JSON.parse(stdout) as { size: number; result: RestoreResult; stored: Record<string, number> };
    expect(size).toBeGreaterThan(60_000_000);
    expect(result).toMatchObject({ conversations: 40, messages: 480, attachments: 40, pausePoints: 40, ledger: 40, stopped: null });
    expect(stored).toEqual({ conversations: 40, messages: 480, attachments: 40, ledger: 40 });
  }, 180_000);

  it('cancelled while writing, leaves whole conversations only and says so; the same file restored again adds the rest', async () => {
    const file = syntheticBackupBlob(SMALL);
    const controller = new AbortController();
    const result = await restoreBackupFile(db, file, {
      signal: controller.signal,
      onProgress: (progress) => progress.phase === 'writing' && controller.abort(),
    });

    expect(result.stopped).toEqual({ reason: 'cancelled', while: 'writing' });
    expect(result.conversations).toBeGreaterThan(0);
    expect(result.conversations + result.conversationsLeft).toBe(450);
    expect(await expectWholeConversations(3)).toBe(result.conversations);
    expect(describeRestore(result)).toBe(
      `Cancelled. Restored ${result.conversations} conversations (${result.messages} messages, ${result.pausePoints} approvals), each whole. ` +
        `${result.conversationsLeft} conversations of the backup, and its notes, approval rules, audit history and settings, were not restored: restore the same file again to add them (what is here is kept as it is).`,
    );

    const again = await restoreBackupFile(db, file);
    expect(again).toMatchObject({ stopped: null, conversations: result.conversationsLeft, conversationsKept: result.conversations });
    expect(await expectWholeConversations(3)).toBe(450);
    // Two restores of more than two batches (200 conversations each) through fake-indexeddb: about 10 s on an idle 2-core machine.
  }, 60_000);

  it('restores the same messages from a file that lists each conversation’s together and from one that interleaves them, as older backups do', async () => {
    // Over 500 records: both files are set aside in several batches, the grouped one as a few rows per batch.
    const spec = { ...SMALL, conversations: 200 };
    const grouped = await restoreBackupFile(db, syntheticBackupBlob(spec));
    const messages = await db.messages.toArray();
    await db.delete();
    await db.open();
    const scattered = await restoreBackupFile(db, syntheticBackupBlob({ ...spec, scattered: true }));

    expect(scattered).toEqual(grouped);
    expect(grouped).toMatchObject({ conversations: 200, messages: 600, stopped: null });
    expect(await db.messages.toArray()).toEqual(messages);
    expect(await expectWholeConversations(3)).toBe(200);
  }, 60_000);

  it('cancelled while checking the file, writes nothing', async () => {
    const before = await databaseSnapshot(db);
    const controller = new AbortController();
    const result = await restoreBackupFile(db, syntheticBackupBlob(SMALL), {
      signal: controller.signal,
      onProgress: (progress) => progress.records > 0 && controller.abort(),
    });
    expect(result.stopped).toEqual({ reason: 'cancelled', while: 'checking' });
    expect(describeRestore(result)).toBe('Cancelled while the backup was being checked: nothing was restored.');
    expect(await databaseSnapshot(db)).toEqual(before);
  });

  it('a file cut off, or broken, part way is refused with the byte where it ends or breaks, and nothing is written', async () => {
    const text = await syntheticBackupBlob({ ...SMALL, conversations: 20 }).text();
    const before = await databaseSnapshot(db);

    const cut = Math.floor(text.length * 0.6);
    const cutOff = await restoreBackupFile(db, new Blob([text.slice(0, cut)])).catch((e: unknown) => e);
    expect(cutOff).toBeInstanceOf(BackupError);
    expect(cutOff).toMatchObject({ code: 'not_json', offset: cut, message: `This file is not a readable backup: it is not valid JSON, or it was cut off (it is cut off at byte ${cut}). Nothing was restored.` });

    const at = text.indexOf('"role"', text.indexOf('"messages"'));
    const broken = await restoreBackupFile(db, new Blob([`${text.slice(0, at)}@${text.slice(at + 1)}`])).catch((e: unknown) => e);
    expect(broken).toMatchObject({ code: 'not_json', offset: at, message: expect.stringContaining(`(it is not valid JSON at byte ${at})`) });

    expect(await databaseSnapshot(db)).toEqual(before);
  });

  it('too big for the free storage: refused unread with a clear message, and nothing written', async () => {
    const before = await databaseSnapshot(db);
    const text = await syntheticBackupBlob({ ...SMALL, conversations: 20 }).text();
    const file = new WatchedBlob([text]);
    const free = file.size; // Less than the file and its set-aside copy.

    const error = await restoreBackupFile(db, file, { estimate: async () => ({ quota: 10 * file.size, usage: 10 * file.size - free }) }).catch((e: unknown) => e);

    const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
    expect(error).toBeInstanceOf(BackupError);
    expect(error).toMatchObject({
      code: 'no_space',
      message: `This backup is ${mb(file.size)}. Restoring it needs about ${mb(2 * file.size)} of free storage (its records are set aside while they are checked, then written), and this browser has ${mb(free)} free for Pausepoint. Free space on this device, or delete conversations you no longer need here, then restore again. The file was not read. Nothing was restored.`,
    });
    expect(file.read).toBe(false);
    expect(await databaseSnapshot(db)).toEqual(before);

    // With room for both, the same file restores.
    const result = await restoreBackupFile(db, file, { estimate: async () => ({ quota: 10 * file.size, usage: 0 }) });
    expect(result).toMatchObject({ conversations: 20, stopped: null });
  });
});
