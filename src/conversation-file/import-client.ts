import type { ImportProgress, ImportResult } from './import-conversations.ts';
import { FromImportWorker, type ToImportWorker } from './import-protocol.ts';

/** An import the import worker is running. */
export interface RunningImport {
  /** The result; rejects with an `ImportFailure` when the file was refused or the import failed. */
  readonly result: Promise<ImportResult>;
  /** `Cancel`: what was read is written, whole; `result` then says `stopped: cancelled`. */
  cancel(): void;
}

/** Why an import failed, as the worker said: `name` is `ImportError` or `StorageError` when the file or the storage is at fault. */
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
  const worker = start();
  const send = (message: ToImportWorker) => worker.postMessage(message);
  const result = new Promise<ImportResult>((resolve, reject) => {
    worker.addEventListener('message', (event: MessageEvent<unknown>) => {
      const parsed = FromImportWorker.safeParse(event.data);
      if (!parsed.success) return reject(new ImportFailure('ProtocolError', 'The import worker answered with something unreadable.'));
      const message = parsed.data;
      if (message.type === 'progress') return onProgress(message);
      if (message.type === 'done') resolve(message.result);
      else reject(new ImportFailure(message.error.name, message.error.message));
    });
    worker.addEventListener('error', (event) => reject(new ImportFailure('WorkerError', `The import worker failed: ${event.message || 'it could not start'}`)));
  });
  const end = () => worker.terminate();
  result.then(end, end);
  send({ type: 'start', file });
  return { result, cancel: () => send({ type: 'cancel' }) };
}
