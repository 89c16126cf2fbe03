import type { MessageDraft, Settlement } from '../ports.ts';
import type { PausePoint } from '../records/index.ts';

/** Both implementations throw errors of this shape (see src/storage/storage-error.ts). */
export function storageError(code: string) {
  return { name: 'StorageError', code };
}

export function resolve(pending: PausePoint, drafts: MessageDraft[], resolution = 'approve'): Settlement {
  return {
    commit: true,
    pausePoint: { ...pending, status: 'resolved', resolution, resolvedAt: 5_000 },
    messages: drafts,
  };
}
