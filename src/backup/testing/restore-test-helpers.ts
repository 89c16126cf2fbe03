import { expect } from 'vitest';
import type { PausepointDb } from '../../storage/db.ts';
import { BackupError } from '../backup-error.ts';
import { createBackup } from '../create-backup.ts';
import { restoreBackup } from '../restore-backup.ts';

/** The database's backup, as the file's text. */
export async function backupText(db: PausepointDb): Promise<string> {
  return (await createBackup(db)).blob.text();
}

/** Clears every data table, keeping settings and the device id: a browser that lost its data but kept its setup. */
export async function wipeData(db: PausepointDb): Promise<void> {
  await Promise.all([db.conversations.clear(), db.messages.clear(), db.pausePoints.clear(), db.ledger.clear(), db.notes.clear(), db.approvalRules.clear()]);
}

/** Restores `text` into `db`, which must refuse it with a `BackupError`: returns that error. */
export async function refusal(db: PausepointDb, text: string): Promise<BackupError> {
  const error = await restoreBackup(db, text).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BackupError);
  return error as BackupError;
}
