import { MAX_FILE_BYTES, MAX_FILES_PER_MESSAGE, MAX_MESSAGE_BYTES } from '../engine/records/attachment-limits.ts';
import { ACCEPTED_FILES, attachmentKind, type FileKind } from './attachment-kind.ts';
import { humanSize } from './human-size.ts';

export interface OfferedFile {
  name: string;
  size: number;
  type: string;
}

export interface CheckedFiles<F extends OfferedFile> {
  /** The files that fit, in the order given, each with what it is sent as. */
  accepted: { file: F; kind: FileKind }[];
  /** One sentence per file refused, naming it and why. */
  errors: string[];
}

/**
 * Which of `offered` can join a message that already holds `held` (their
 * sizes): the per-file size, the per-message count and total, and the types
 * the model can take. Each refusal names its file; the others are still added.
 */
export function checkAttachments<F extends OfferedFile>(held: readonly { size: number }[], offered: readonly F[]): CheckedFiles<F> {
  const accepted: CheckedFiles<F>['accepted'] = [];
  const errors: string[] = [];
  let count = held.length;
  let total = held.reduce((sum, f) => sum + f.size, 0);
  for (const file of offered) {
    const kind = attachmentKind(file.name, file.type);
    if (!kind) errors.push(`“${file.name}” cannot be attached: Pausepoint sends ${ACCEPTED_FILES}.`);
    else if (file.size > MAX_FILE_BYTES) errors.push(`“${file.name}” is ${humanSize(file.size)}: a file can be at most ${humanSize(MAX_FILE_BYTES)}.`);
    else if (count >= MAX_FILES_PER_MESSAGE) errors.push(`“${file.name}” was not added: a message can carry at most ${MAX_FILES_PER_MESSAGE} files.`);
    else if (total + file.size > MAX_MESSAGE_BYTES)
      errors.push(`“${file.name}” was not added: a message's files can be at most ${humanSize(MAX_MESSAGE_BYTES)} together.`);
    else {
      accepted.push({ file, kind });
      count++;
      total += file.size;
    }
  }
  return { accepted, errors };
}
