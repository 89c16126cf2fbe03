/**
 * What MemoryStorage throws: the same shape as src/storage's `StorageError`
 * (name `StorageError`, a `code`), which the engine may not import. Tests and
 * engine code match on `name` and `code` so both implementations pass.
 */
export class MemoryStorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly code: 'not_found' | 'conflict' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}
