import type { SetAside } from './storage-port.ts';
import type { PausePoint } from './records/index.ts';
import { StorageError } from './storage-error.ts';

/**
 * What both storages check of a pause point that `appendMessages` sets aside:
 * the same record, no longer pending (its messages are checked as every appended one is).
 */
export function checkedSetAside(pending: PausePoint, settled: SetAside): SetAside {
  const { pausePoint } = settled;
  if (pausePoint.id !== pending.id || pausePoint.conversationId !== pending.conversationId) {
    throw new StorageError('invalid', `Setting pause point ${pending.id} aside returned pause point ${pausePoint.id}.`);
  }
  if (pausePoint.status === 'pending') throw new StorageError('invalid', `Setting pause point ${pending.id} aside left it pending.`);
  return settled;
}
