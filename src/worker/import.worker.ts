/// <reference lib="webworker" />
// First: configures zod before any schema is built (see zod-config.ts).
import '../zod-config.ts';
import { importConversationsFile } from '../conversation-file/import-conversations.ts';
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
 * sees through its live queries.
 */
const post = (message: FromImportWorker) => self.postMessage(message);
let running: AbortController | null = null;

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = ToImportWorker.safeParse(event.data);
  if (!parsed.success) return post({ type: 'failed', error: { name: 'ProtocolError', message: 'The import worker could not read a request.' } });
  if (parsed.data.type === 'cancel') return running?.abort();
  if (running) return post({ type: 'failed', error: { name: 'ProtocolError', message: 'An import is already running.' } });
  running = new AbortController();
  void run(parsed.data.file, running.signal);
});

async function run(file: Blob, signal: AbortSignal): Promise<void> {
  const db = new PausepointDb();
  let sentAt = 0;
  let sentConversations = 0;
  try {
    const result = await importConversationsFile(db, file, {
      signal,
      onProgress: (progress) => {
        const now = performance.now();
        if (progress.conversations === sentConversations && now - sentAt < PROGRESS_EVERY_MS) return;
        sentAt = now;
        sentConversations = progress.conversations;
        post({ type: 'progress', ...progress });
      },
    });
    post({ type: 'done', result });
  } catch (error) {
    const code = error instanceof ImportError || error instanceof StorageError ? { code: error.code } : {};
    post({ type: 'failed', error: { name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error), ...code } });
  } finally {
    db.close();
    running = null;
  }
}
