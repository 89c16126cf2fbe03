import { StorageError } from '../engine/storage-error.ts';

export { StorageError, type StorageErrorCode } from '../engine/storage-error.ts';

const UNAVAILABLE = new Set([
  'DatabaseClosedError',
  'OpenFailedError',
  'MissingAPIError',
  'InvalidStateError',
  'VersionError',
  'UpgradeError',
  'NoSuchDatabaseError',
]);

interface NamedError {
  name: string;
  message: string;
  /** Dexie wraps the IndexedDB error that aborted a transaction here. */
  inner?: unknown;
  /** Dexie's BulkError lists the failed operations of a bulkAdd/bulkPut here. */
  failures?: unknown;
}

function isNamedError(value: unknown): value is NamedError {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}

/** The names found on an error, the error Dexie wrapped, and the failures of a bulk operation. */
function namesOf(error: NamedError): string[] {
  const names = [error.name];
  if (isNamedError(error.inner)) names.push(...namesOf(error.inner));
  if (Array.isArray(error.failures)) {
    for (const failure of error.failures) if (isNamedError(failure)) names.push(...namesOf(failure));
  }
  return names;
}

/**
 * Translates what Dexie and IndexedDB throw into a `StorageError`. Anything else
 * (an error thrown by a caller's callback, a bug) is returned unchanged so it
 * keeps its type and stack. A failed transaction has written nothing: IndexedDB
 * rolls the whole transaction back.
 */
export function toStorageError(error: unknown): unknown {
  if (error instanceof StorageError || !isNamedError(error)) return error;
  const names = namesOf(error);
  if (names.includes('QuotaExceededError')) {
    return new StorageError(
      'quota_exceeded',
      'The browser refused to store more data: this site is out of storage space. Nothing from this change was saved; free some space (delete old conversations) and try again.',
      { cause: error },
    );
  }
  if (names.includes('ConstraintError')) {
    return new StorageError('conflict', `A record with this id already exists: ${error.message}`, { cause: error });
  }
  if (names.some((name) => UNAVAILABLE.has(name))) {
    return new StorageError('unavailable', `The local database is not available: ${error.message}`, { cause: error });
  }
  // A StorageError thrown inside a transaction can come back wrapped by Dexie.
  if (error.inner instanceof StorageError) return error.inner;
  return error;
}
