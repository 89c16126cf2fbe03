import { expect } from 'vitest';
import { StorageError, type StorageErrorCode } from '../storage-error.ts';
import type { MessageDraft, Settlement } from '../storage-port.ts';
import type { PausePoint } from '../records/index.ts';

/** What both implementations throw: the port's own error, with this code. */
export function storageError(code: StorageErrorCode) {
  return expect.objectContaining({ constructor: StorageError, code });
}

export function resolve(pending: PausePoint, drafts: MessageDraft[], resolution = 'approve'): Settlement {
  return {
    commit: true,
    pausePoint: { ...pending, status: 'resolved', resolution, resolvedAt: 5_000 },
    messages: drafts,
  };
}
