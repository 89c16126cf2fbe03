import type { z } from 'zod';
import { API_KEYS_KEY, apiKeyFor } from '../storage/api-keys.ts';
import type { PausepointDb } from '../storage/db.ts';
import { StoredSettings } from '../storage/settings-repo.ts';
import { toStorageError } from '../storage/storage-error.ts';
import type { BackupRecords, BackupSettings, ValidBackup } from './backup-format.ts';
import { parseBackup, type ParseOptions } from './parse-backup.ts';

export interface RestoreResult {
  /** Conversations written (with their messages, pause points and ledger records). */
  conversations: number;
  messages: number;
  pausePoints: number;
  ledger: number;
  notes: number;
  /** Conversations in the backup that were already here and were left as they are. */
  conversationsKept: number;
  /**
   * `restored`: the backup's settings were written (this browser's API keys, stored per
   * endpoint origin, are untouched); `unchanged`: they equal the current ones; `kept_current`:
   * this browser's settings point at another endpoint and were kept; `absent`: the backup has none.
   */
  settings: 'restored' | 'unchanged' | 'kept_current' | 'absent';
  /** True when settings were restored with no API key to go with them: the user must enter one. */
  apiKeyMissing: boolean;
  /** Records the backup itself says were unreadable when it was made (and so are not in it). */
  skippedInBackup: number;
}

const SETTINGS_KEY = 'settings';

/**
 * Restores a backup file's text into `db`. Every record is checked first
 * (`parseBackup` throws a `BackupError` for a bad file, and nothing is written);
 * then all writes happen in one read-write transaction, so a failure part way
 * (the disk full) leaves the database as it was and is thrown as a `StorageError`.
 *
 * A restore adds what is missing and never rolls back what is here:
 * - A conversation already in the database is kept as it is, with all its
 *   records; the backup's copy of it is skipped whole. The local copy is the one
 *   this browser has been driving: putting an older copy over it would turn
 *   decided pause points back to pending (and a tool could run twice) and mix
 *   two message histories in one sequence.
 * - A note is written when it is missing or older here.
 * - Settings are written when this browser has none, or has the same endpoint.
 *   Settings for another endpoint are not written: they would switch this browser
 *   to another server unasked. API keys are never written: a file holds none, and
 *   the keys saved here (per origin) stay as they are.
 * Restoring the same file twice therefore writes nothing the second time.
 */
export async function restoreBackup(db: PausepointDb, text: string, options: ParseOptions = {}): Promise<RestoreResult> {
  return writeBackupRecords(db, await parseBackup(text, options));
}

async function writeBackupRecords(db: PausepointDb, backup: ValidBackup): Promise<RestoreResult> {
  const { records } = backup;
  try {
    return await db.transaction('rw', [db.conversations, db.messages, db.pausePoints, db.ledger, db.notes, db.settings], async () => {
      const present = await presentConversations(db, records);
      const absent = <T extends { conversationId: string }>(rows: T[]) => rows.filter((row) => !present.has(row.conversationId));
      const conversations = records.conversations.filter((conversation) => !present.has(conversation.id));
      const messages = absent(records.messages);
      const pausePoints = absent(records.pausePoints);
      const ledger = absent(records.ledger);
      const notes = await newerNotes(db, records.notes);
      const settings = await restoreSettings(db, backup.settings);

      await db.conversations.bulkPut(conversations);
      await db.messages.bulkPut(messages);
      await db.pausePoints.bulkPut(pausePoints);
      await db.ledger.bulkPut(ledger);
      await db.notes.bulkPut(notes);
      if (settings.write) await db.settings.put({ key: SETTINGS_KEY, value: settings.write });

      return {
        conversations: conversations.length,
        messages: messages.length,
        pausePoints: pausePoints.length,
        ledger: ledger.length,
        notes: notes.length,
        conversationsKept: records.conversations.length - conversations.length,
        settings: settings.outcome,
        apiKeyMissing: settings.apiKeyMissing,
        skippedInBackup: backup.skipped.length,
      };
    });
  } catch (error) {
    throw toStorageError(error);
  }
}

/** Ids of conversations the backup mentions (as records or as owners of records) that exist here. */
async function presentConversations(db: PausepointDb, records: BackupRecords): Promise<Set<string>> {
  const ids = new Set<string>(records.conversations.map((conversation) => conversation.id));
  for (const table of [records.messages, records.pausePoints, records.ledger]) {
    for (const row of table) ids.add(row.conversationId);
  }
  const keys = [...ids];
  const found = await db.conversations.bulkGet(keys);
  return new Set(keys.filter((_, index) => found[index] !== undefined));
}

async function newerNotes(db: PausepointDb, notes: BackupRecords['notes']): Promise<BackupRecords['notes']> {
  const current = await db.notes.bulkGet(notes.map((note) => note.id));
  return notes.filter((note, index) => {
    const here = current[index];
    return here === undefined || !(typeof here.updatedAt === 'number' && here.updatedAt >= note.updatedAt);
  });
}

interface SettingsPlan {
  outcome: RestoreResult['settings'];
  write: StoredSettingsValue | undefined;
  apiKeyMissing: boolean;
}
type StoredSettingsValue = z.output<typeof StoredSettings>;

/** Providers that are usually run without a key: restoring their settings needs no key prompt. */
const KEYLESS_PROVIDERS: ReadonlySet<string> = new Set(['ollama', 'lmstudio', 'demo']);

async function restoreSettings(db: PausepointDb, backup: BackupSettings | null): Promise<SettingsPlan> {
  if (backup === null) return { outcome: 'absent', write: undefined, apiKeyMissing: false };
  const row = await db.settings.get(SETTINGS_KEY);
  const current = StoredSettings.safeParse(row?.value);
  if (current.success && current.data.baseUrl !== backup.baseUrl) {
    return { outcome: 'kept_current', write: undefined, apiKeyMissing: false };
  }
  const next = StoredSettings.parse(backup);
  if (current.success && sameSettings(current.data, next)) return { outcome: 'unchanged', write: undefined, apiKeyMissing: false };
  // The key, if any, is the one this browser saved for the restored endpoint's origin.
  const apiKey = apiKeyFor((await db.settings.get(API_KEYS_KEY))?.value, next.baseUrl);
  return { outcome: 'restored', write: next, apiKeyMissing: apiKey === '' && !KEYLESS_PROVIDERS.has(next.provider) };
}

/** Every settings field is a string, number, boolean or null, so a shallow comparison is exact. */
function sameSettings(a: StoredSettingsValue, b: StoredSettingsValue): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof StoredSettingsValue)[]);
  return [...keys].every((key) => Object.is(a[key], b[key]));
}
