/**
 * Why a storage call failed. The first three are the caller's fault (a wrong id,
 * a record that already exists, a record that breaks an invariant); the last three
 * are the system's (the disk is full, stored data cannot be read, the database
 * cannot be opened).
 *
 * It belongs to the storage port (storage-port.ts): every implementation — Dexie in
 * src/storage, the in-memory twin in src/engine/testing — throws this class,
 * so callers match with `instanceof` and `code`.
 */
export type StorageErrorCode = 'not_found' | 'conflict' | 'invalid' | 'quota_exceeded' | 'corrupt' | 'unavailable';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
