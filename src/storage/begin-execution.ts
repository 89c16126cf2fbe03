import type { LedgerEntry } from '../engine/records/index.ts';
import type { PausepointDb } from './db.ts';

/**
 * `StoragePort.beginExecution` over IndexedDB: the ledger's `started` record,
 * the compare-and-set that lets a side effect happen at most once.
 *
 * The one write of the engine made `strict` (the database is opened
 * `relaxed`, see db.ts), through `db.strict`: the tool runs as soon as this
 * resolves, and a `relaxed` commit is only handed to the operating system, so
 * a power cut or an OS crash right after the tool acted could lose the
 * record, and the recovering run would act a second time. `strict` waits
 * until the record is on disk. It also makes the commits before it durable
 * (the database's log is written in order), so the decision that let the
 * call run is not lost while its run is remembered.
 *
 * With nothing to reopen the write is one `add`, refused by IndexedDB whatever
 * entry exists; otherwise a read of the entry, then a `put` only from a listed status.
 */
export async function beginExecution(db: PausepointDb, entry: LedgerEntry, reopen: readonly LedgerEntry['status'][]): Promise<boolean> {
  const { ledger } = db.strict;
  if (reopen.length === 0) {
    return ledger.add(entry).then(
      () => true,
      (error: unknown) => {
        if (isNamed(error, 'ConstraintError')) return false;
        throw error;
      },
    );
  }
  return db.strict.transaction('rw', ledger, async () => {
    const existing = await ledger.get(entry.id);
    if (existing && !reopen.includes(existing.status)) return false;
    await ledger.put(entry);
    return true;
  });
}

function isNamed(error: unknown, name: string): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;
}
