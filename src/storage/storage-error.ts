/**
 * Why a storage call failed. The first three are the caller's fault (a wrong id,
 * a record that already exists, a record that breaks an invariant); the last three
 * are the system's (the disk is full, stored data cannot be read, the database
 * cannot be opened).
 *
 * `MemoryStorage` (src/engine/testing) throws errors of the same shape — name
 * `StorageError` and one of these codes — because the engine may not import this
 * file. Match on `name` and `code`, not on `instanceof`, where both can appear.
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
