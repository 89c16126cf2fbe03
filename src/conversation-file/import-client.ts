import type { RestoreProgress, RestoreResult } from '../backup/restore-backup.ts';
import type { ImportProgress, ImportResult } from './import-conversations.ts';
import { FromImportWorker, type ToImportWorker } from './import-protocol.ts';

/** A task the import worker is running on a file: an import or a restore. */
export interface RunningTask<R> {
  /** The result; rejects with an `ImportFailure` when the file was refused or the task failed. */
  readonly result: Promise<R>;
  /** `Cancel`: the task stops as its result then says (`stopped`). */
  cancel(): void;
}
export type RunningImport = RunningTask<ImportResult>;
export type RunningRestore = RunningTask<RestoreResult>;

/** Why an import or a restore failed, as the worker said: `kind` is `ImportError`, `BackupError` or `StorageError` when the file or the storage is at fault. */
export class ImportFailure extends Error {
  override readonly name = 'ImportFailure';
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

const startWorker = () => new Worker(new URL('../worker/import.worker.ts', import.meta.url), { type: 'module', name: 'import' });

/**
 * Imports `file` in a worker of its own (src/worker/import.worker.ts), ended
 * when the import ends. Loaded on demand by Settings › Import conversations,
 * with zod and the protocol's schemas.
 */
export function startImport(file: Blob, onProgress: (progress: ImportProgress) => void, start: () => Worker = startWorker): RunningImport {
  return runInWorker({ type: 'start', file }, start, (message) => {
    if (message.type === 'progress') onProgress(message);
    return message.type === 'done' ? message.result : undefined;
  });
}

/** Restores a backup file in the same worker (src/backup/restore-backup.ts). Loaded on demand by Settings › Backup and storage. */
export function startRestore(file: Blob, onProgress: (progress: RestoreProgress) => void, start: () => Worker = startWorker): RunningRestore {
  return runInWorker({ type: 'restore', file }, start, (message) => {
    if (message.type === 'restore-progress') onProgress(message.progress);
    return message.type === 'restored' ? message.result : undefined;
  });
}

/** Starts the worker on one request; `read` takes each message it sends and returns the result when one is it. */
function runInWorker<R>(request: ToImportWorker, start: () => Worker, read: (message: FromImportWorker) => R | undefined): RunningTask<R> {
  const worker = start();
  const send = (message: ToImportWorker) => worker.postMessage(message);
  const result = new Promise<R>((resolve, reject) => {
    worker.addEventListener('message', (event: MessageEvent<unknown>) => {
      const parsed = FromImportWorker.safeParse(event.data);
      if (!parsed.success) return reject(new ImportFailure('ProtocolError', 'The import worker answered with something unreadable.'));
      const message = parsed.data;
      if (message.type === 'failed') return reject(new ImportFailure(message.error.name, message.error.message));
      const done = read(message);
      if (done !== undefined) resolve(done);
    });
    worker.addEventListener('error', (event) => reject(new ImportFailure('WorkerError', `The import worker failed: ${event.message || 'it could not start'}`)));
  });
  const end = () => worker.terminate();
  result.then(end, end);
  send(request);
  return { result, cancel: () => send({ type: 'cancel' }) };
}
