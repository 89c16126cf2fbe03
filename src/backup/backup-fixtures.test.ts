import 'fake-indexeddb/auto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/open-test-db.ts';
import { readSettings } from '../storage/settings-repo.ts';
import { BackupError, type BackupErrorCode } from './backup-error.ts';
import { createBackup } from './create-backup.ts';
import { describeRestore } from './describe-restore.ts';
import { restoreBackup } from './restore-backup.ts';
import { databaseSnapshot } from './testing/database-snapshot.ts';

/**
 * Backup files as earlier versions of the app wrote them, and files that must
 * be refused. The fixtures are history: never edit one to make a change pass.
 */
const FIXTURES = join(import.meta.dirname, '../../tests/fixtures/backup');
const read = (...path: string[]) => readFileSync(join(FIXTURES, ...path), 'utf8');

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

describe('backup format v1 sample', () => {
  const sample = read('v1-sample.json');

  it('restores completely into an empty browser', async () => {
    const result = await restoreBackup(db, sample);
    expect(result).toEqual({
      conversations: 2,
      messages: 9,
      pausePoints: 2,
      ledger: 1,
      notes: 1,
      conversationsKept: 0,
      settings: 'restored',
      apiKeyMissing: true,
      skippedInBackup: 0,
    });
    expect(describeRestore(result)).toBe(
      'Restored 2 conversations (9 messages, 2 approvals), 1 note and your settings. Backups never hold an API key: enter yours in Settings.',
    );
    expect(await db.pausePoints.get('8c0e2f4a-5b6d-4e7f-9a1b-2c3d4e5f6a10')).toMatchObject({ status: 'pending', title: 'Send the January newsletter?' });
    expect((await db.settings.get('settings'))?.value).toMatchObject({ provider: 'openrouter' });
    expect(await readSettings(db)).toMatchObject({ provider: 'openrouter', apiKey: '' });
  });

  it('is written back identically by a backup of what it restored (no field is lost)', async () => {
    await restoreBackup(db, sample);
    const again = JSON.parse(await (await createBackup(db)).blob.text());
    const original = JSON.parse(sample);
    expect(again.data).toEqual(original.data);
  });
});

/** What each negative fixture must be refused with; every file in invalid/ must be listed here. */
const REFUSALS: Record<string, { code: BackupErrorCode; table?: string; index?: number; message: RegExp }> = {
  'audit-log.json': { code: 'foreign_format', message: /audit log export/ },
  'corrupt-record.json': { code: 'invalid_record', table: 'messages', index: 3, message: /^Record 3 of messages \(id "a1b2c3d4-0000-4000-8000-000000000a03"\) is invalid: role:/ },
  'duplicate-id.json': { code: 'invalid_record', table: 'pausePoints', index: 1, message: /repeats the id/ },
  'foreign-format.json': { code: 'foreign_format', message: /its format is "chat-archive"/ },
  'future-version.json': { code: 'future_version', message: /newer version of Pausepoint \(backup version 2/ },
  'missing-table.json': { code: 'invalid_file', message: /data\.ledger/ },
  'settings-javascript-url.json': { code: 'invalid_record', table: 'settings', message: /settings in this backup are invalid: baseUrl/ },
  'truncated.json': { code: 'not_json', message: /not valid JSON, or it was cut off/ },
};

describe('backup files that must be refused', () => {
  const names = readdirSync(join(FIXTURES, 'invalid')).filter((name) => name.endsWith('.json')).sort();

  it('every negative fixture has an expectation', () => {
    expect(names).toEqual(Object.keys(REFUSALS).sort());
  });

  it.each(names)('%s is refused and nothing is written', async (name) => {
    // Any write the refused file made would show against this.
    await db.notes.put({ v: 1, id: 'n-here', title: 'Here', body: 'Only here.', createdAt: 1, updatedAt: 1 });
    const before = await databaseSnapshot(db);
    const expected = REFUSALS[name]!;

    const error = await restoreBackup(db, read('invalid', name)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BackupError);
    expect(error).toMatchObject({ code: expected.code, table: expected.table, index: expected.index });
    expect((error as Error).message).toMatch(expected.message);
    expect((error as Error).message).toMatch(/Nothing was restored\.$/);
    expect(await databaseSnapshot(db)).toEqual(before);
  });
});
