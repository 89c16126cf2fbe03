import { z } from 'zod';
import { RestoreProgressWire, RestoreResultWire } from '../backup/restore-protocol.ts';
import type { ImportResult } from './import-conversations.ts';

/**
 * Between the page and the import worker (src/worker/import.worker.ts): the
 * page sends the file the person chose (a `File` is cloned by reference, not
 * read) and may cancel; the worker sends progress, then the result or why it
 * failed. Both sides parse what they receive with these schemas. The same
 * worker restores a backup file (`restore`): one worker for the tasks that
 * read a chosen file of any size as a stream.
 */
export const ToImportWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), file: z.instanceof(Blob) }),
  /** Restore from backup file (src/backup/restore-backup.ts); `cancel` stops it as that says. */
  z.object({ type: z.literal('restore'), file: z.instanceof(Blob) }),
  /** `Cancel`: the conversations already read are written, whole, and the import stops. */
  z.object({ type: z.literal('cancel') }),
]);
export type ToImportWorker = z.infer<typeof ToImportWorker>;

const Count = z.number().int().nonnegative();

export const ImportResultWire = z.object({
  source: z.enum(['chatgpt', 'pausepoint']),
  conversations: Count,
  messages: Count,
  renamed: Count,
  skipped: z.array(z.object({ number: Count, reason: z.string() })),
  skippedCount: Count,
  stopped: z
    .discriminatedUnion('reason', [
      z.object({ reason: z.literal('cancelled') }),
      z.object({ reason: z.literal('malformed'), message: z.string(), offset: Count, number: Count.nullable() }),
    ])
    .nullable(),
  bytes: Count,
}) satisfies z.ZodType<ImportResult>;

export const FromImportWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), conversations: Count, bytes: Count, totalBytes: Count.nullable() }),
  z.object({ type: z.literal('done'), result: ImportResultWire }),
  z.object({ type: z.literal('restore-progress'), progress: RestoreProgressWire }),
  z.object({ type: z.literal('restored'), result: RestoreResultWire }),
  /** `name` is `ImportError` or `BackupError` (the file's fault), `StorageError` (this browser's storage) or another error's. */
  z.object({ type: z.literal('failed'), error: z.object({ name: z.string(), message: z.string(), code: z.string().optional() }) }),
]);
export type FromImportWorker = z.infer<typeof FromImportWorker>;
