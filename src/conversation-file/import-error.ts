/**
 * Why Import conversations refused a file, or stopped reading it: always the
 * file's fault (storage failures are `StorageError`s).
 *
 * - `not_json`: not JSON at all, or empty. Nothing was written.
 * - `foreign_format`: JSON, but neither a ChatGPT export's conversations.json nor a Pausepoint conversation. Nothing was written.
 * - `future_version`: a Pausepoint conversation file made by a newer version. Nothing was written.
 * - `invalid_file`: a Pausepoint conversation file that is broken. Nothing was written.
 * - `malformed`: JSON that breaks off or goes wrong part way, at byte `offset`, in conversation `index` (from 0) of
 *   a ChatGPT export. An import that meets it keeps the whole conversations before it and says so.
 */
export type ImportErrorCode = 'not_json' | 'foreign_format' | 'future_version' | 'invalid_file' | 'malformed';

export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly code: ImportErrorCode;
  readonly index: number | undefined;
  readonly offset: number | undefined;

  constructor(code: ImportErrorCode, message: string, details: { index?: number; offset?: number; cause?: unknown } = {}) {
    super(message, { cause: details.cause });
    this.code = code;
    this.index = details.index;
    this.offset = details.offset;
  }
}
