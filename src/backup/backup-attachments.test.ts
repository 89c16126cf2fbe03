import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../common/sha256.ts';
import { makeConversation } from '../engine/testing/make-records.ts';
import { putAttachments } from '../storage/attachments-repo.ts';
import type { PausepointDb } from '../storage/db.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { refOf, type StoredAttachment } from '../storage/stored-attachment.ts';
import { openTestDb, useTestDb } from '../storage/testing/open-test-db.ts';
import { BackupError } from './backup-error.ts';
import { createBackup } from './create-backup.ts';
import { restoreBackup } from './restore-backup.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7]);

async function seed(target: PausepointDb): Promise<StoredAttachment> {
  const file: StoredAttachment = { v: 1, id: 'f1', name: 'dot.png', type: 'image/png', size: PNG.length, sha256: await sha256Hex(PNG), kind: 'image', blob: new Blob([PNG], { type: 'image/png' }), createdAt: 5 };
  await putAttachments(target, [file]);
  const storage = new DexieStorage(target);
  await storage.putConversation(makeConversation({ id: 'c1' }));
  await storage.appendMessages('c1', [{ v: 1, id: 'm1', conversationId: 'c1', createdAt: 6, role: 'user', content: 'See', attachments: [refOf(file)] }]);
  return file;
}

async function backupText(source: PausepointDb): Promise<string> {
  return (await createBackup(source)).blob.text();
}

describe('attachments in backups', () => {
  it('carry their bytes and hash, and come back with the message that names them', async () => {
    const file = await seed(db);
    const backup = await createBackup(db);
    expect(backup.counts.attachments).toBe(1);
    const json = JSON.parse(await backup.blob.text());
    expect(json.data.attachments).toEqual([{ v: 1, id: 'f1', name: 'dot.png', type: 'image/png', size: 10, sha256: file.sha256, kind: 'image', createdAt: 5, data: 'iVBORw0KGgoHBw==' }]);

    const other = await openTestDb();
    try {
      const result = await restoreBackup(other.db, JSON.stringify(json));
      expect(result).toMatchObject({ messages: 1, attachments: 1 });
      const back = await other.db.attachments.get('f1');
      expect(back && refOf(back)).toEqual(refOf(file));
      expect(new Uint8Array(await back!.blob.arrayBuffer())).toEqual(PNG);
    } finally {
      await other.cleanup();
    }
  });

  it('refuse the whole file when a file’s bytes do not match its SHA-256, and write nothing', async () => {
    await seed(db);
    const json = JSON.parse(await backupText(db));
    json.data.attachments[0].data = 'iVBORw0KGgoHCA==';
    const other = await openTestDb();
    try {
      const error = await restoreBackup(other.db, JSON.stringify(json)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BackupError);
      expect(error).toMatchObject({ code: 'invalid_record', table: 'attachments', index: 0 });
      expect((error as Error).message).toBe('Attachment 0 of the backup (“dot.png”) does not match its SHA-256: the file was changed or damaged. Nothing was restored.');
      expect(await other.db.messages.count()).toBe(0);
      expect(await other.db.attachments.count()).toBe(0);
    } finally {
      await other.cleanup();
    }
  });

  it('refuse a file that no message names, or that is not the file its message names', async () => {
    await seed(db);
    const json = JSON.parse(await backupText(db));
    const stray = JSON.parse(JSON.stringify(json));
    stray.data.attachments[0].id = 'f2';
    await expect(restoreBackup((await openTestDb()).db, JSON.stringify(stray))).rejects.toThrow('is named by no message of the backup');
    const renamed = JSON.parse(JSON.stringify(json));
    renamed.data.messages[0].attachments[0].sha256 = 'b'.repeat(64);
    await expect(restoreBackup((await openTestDb()).db, JSON.stringify(renamed))).rejects.toThrow('is not the file its message names');
  });

  it('leave out files no message names, and restore a file from before attachments as before', async () => {
    await seed(db);
    await putAttachments(db, [{ v: 1, id: 'orphan', name: 'x.txt', type: 'text/plain', size: 1, sha256: await sha256Hex(new Uint8Array([120])), kind: 'text', text: 'x', blob: new Blob(['x']), createdAt: 1 }]);
    const json = JSON.parse(await backupText(db));
    expect(json.data.attachments.map((a: { id: string }) => a.id)).toEqual(['f1']);
    delete json.data.attachments;
    const other = await openTestDb();
    try {
      // The message comes back with its ref; its bytes are not on this device (the message says so).
      expect(await restoreBackup(other.db, JSON.stringify(json))).toMatchObject({ messages: 1, attachments: 0 });
    } finally {
      await other.cleanup();
    }
  });
});
