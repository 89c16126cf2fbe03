/**
 * Why a backup file was refused: always the file's fault, never the database's
 * (storage failures during a restore are `StorageError`s). Nothing is written
 * when one is thrown.
 *
 * - `not_json`: not JSON at all, or cut off (a truncated download), at byte `offset`.
 * - `foreign_format`: JSON, but not a Pausepoint backup (an audit log export, another app's file).
 * - `future_version`: made by a newer Pausepoint; this one cannot read it.
 * - `invalid_file`: a Pausepoint backup whose outer structure is broken.
 * - `invalid_record`: one record (named by `table` and `index`) breaks its schema, repeats an id,
 *   points outside the file, or (settings) names a provider but another address.
 * - `conflict`: a record's id is already used in this browser by a record the restore would not replace.
 * - `no_space`: this browser's free storage (`navigator.storage.estimate()`) cannot hold what the file would
 *   write; it was not read.
 *
 * `offset`, where given, is the byte of the file the problem was found at.
 */
export type BackupErrorCode = 'not_json' | 'foreign_format' | 'future_version' | 'invalid_file' | 'invalid_record' | 'conflict' | 'no_space';

export class BackupError extends Error {
  override readonly name = 'BackupError';
  readonly code: BackupErrorCode;
  readonly table: string | undefined;
  readonly index: number | undefined;
  readonly offset: number | undefined;

  constructor(code: BackupErrorCode, message: string, details: { table?: string; index?: number; offset?: number; cause?: unknown } = {}) {
    super(message, { cause: details.cause });
    this.code = code;
    this.table = details.table;
    this.index = details.index;
    this.offset = details.offset;
  }
}
