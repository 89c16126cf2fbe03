/**
 * Why Import conversations refused a file: always the file's fault (storage
 * failures are `StorageError`s). Nothing is written when one is thrown.
 *
 * - `too_large`: bigger than `MAX_IMPORT_FILE_BYTES`; it was not read.
 * - `not_json`: not JSON at all, or cut off.
 * - `foreign_format`: JSON, but neither a ChatGPT export's conversations.json nor a Pausepoint conversation.
 * - `future_version`: a Pausepoint conversation file made by a newer version.
 * - `invalid_file`: the right kind of file, but broken (named by `index`, the conversation's place in the file).
 */
export type ImportErrorCode = 'too_large' | 'not_json' | 'foreign_format' | 'future_version' | 'invalid_file';

export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly code: ImportErrorCode;
  readonly index: number | undefined;

  constructor(code: ImportErrorCode, message: string, details: { index?: number; cause?: unknown } = {}) {
    super(message, { cause: details.cause });
    this.code = code;
    this.index = details.index;
  }
}
