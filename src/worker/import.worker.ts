/// <reference lib="webworker" />
// First: configures zod before any schema is built (see zod-config.ts).
import '../zod-config.ts';
import { BackupError } from '../backup/backup-error.ts';
import { restoreBackupFile, type RestoreProgress } from '../backup/restore-backup.ts';
import { importConversationsFile, type ImportProgress } from '../conversation-file/import-conversations.ts';
import { ToImportWorker, type FromImportWorker } from '../conversation-file/import-protocol.ts';
import { ImportError } from '../conversation-file/import-error.ts';
import { StorageError } from '../storage/storage-error.ts';
import { PausepointDb } from '../storage/db.ts';

declare const self: DedicatedWorkerGlobalScope;

/** Progress is sent at most this often (and whenever a batch is written): the file is read in chunks of 64 kB. */
const PROGRESS_EVERY_MS = 100;

/**
 * Import conversations' own worker, started for one import and ended with
 * it: the file is read as a stream here, away from the page and from the
 * agent worker, whose start it adds nothing to. What it writes, the page
 * sees through its live queries. Restore from backup file runs here too: the
 * same reading of a file of any size as a stream, away from the page.
 */
const post = (message: FromImportWorker) => self.postMessage(message);
let running: AbortController | null = null;

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = ToImportWorker.safeParse(event.data);
  if (!parsed.success) return post({ type: 'failed', error: { name: 'ProtocolError', message: 'The import worker could not read a request.' } });
  if (parsed.data.type === 'cancel') return running?.abort();
  if (running) return post({ type: 'failed', error: { name: 'ProtocolError', message: 'An import is already running.' } });
  running = new AbortController();
  const { file } = parsed.data;
  const signal = running.signal;
  void run(async (db) => {
    if (parsed.data.type === 'restore') {
      const onProgress = throttled<RestoreProgress>((progress) => post({ type: 'restore-progress', progress }), (progress) => progress.phase);
      post({ type: 'restored', result: await restoreBackupFile(db, file, { signal, onProgress }) });
    } else {
      const onProgress = throttled<ImportProgress>((progress) => post({ type: 'progress', ...progress }), (progress) => progress.conversations);
      post({ type: 'done', result: await importConversationsFile(db, file, { signal, onProgress }) });
    }
  });
});

/** Sends progress at most every `PROGRESS_EVERY_MS`, and at once whenever `step` changes (a batch written, a phase begun). */
function throttled<P>(send: (progress: P) => void, step: (progress: P) => unknown): (progress: P) => void {
  let sentAt = 0;
  let sentStep: unknown;
  return (progress) => {
    const now = performance.now();
    if (step(progress) === sentStep && now - sentAt < PROGRESS_EVERY_MS) return;
    sentAt = now;
    sentStep = step(progress);
    send(progress);
  };
}

async function run(task: (db: PausepointDb) => Promise<void>): Promise<void> {
  const db = new PausepointDb();
  try {
    await task(db);
  } catch (error) {
    const code = error instanceof ImportError || error instanceof BackupError || error instanceof StorageError ? { code: error.code } : {};
    post({ type: 'failed', error: { name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error), ...code } });
  } finally {
    db.close();
    running = null;
  }
}
