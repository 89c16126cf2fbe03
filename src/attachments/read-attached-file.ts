import { MAX_FILE_TEXT_CHARS } from '../engine/records/attachment-limits.ts';
import type { StoredAttachment } from '../storage/stored-attachment.ts';
import type { FileKind } from './attachment-kind.ts';
import { AttachmentReadError } from './attachment-read-error.ts';
import { sha256Hex } from '../common/sha256.ts';

/** A file as it is stored, less what the tray gives it when the message is sent. */
export type ReadFile = Omit<StoredAttachment, 'v' | 'id' | 'createdAt'>;

/**
 * Reads a file's bytes a chunk at a time (a large file shows its progress),
 * hashes them, and for a text file or a PDF takes its text out once, so a
 * request never parses the file again.
 */
export async function readAttachedFile(file: File, kind: FileKind, onProgress: (fraction: number) => void = () => {}): Promise<ReadFile> {
  const name = file.name || 'pasted file';
  const bytes = await readBytes(file, onProgress).catch((error: unknown) => {
    throw new AttachmentReadError(name, `“${name}” could not be read: ${error instanceof Error ? error.message : String(error)}`);
  });
  const sha256 = await sha256Hex(bytes);
  const blob = new Blob([bytes], { type: kind.type });
  const base = { name, type: kind.type, size: bytes.length, sha256, kind: kind.kind, blob };
  if (kind.kind === 'image') return base;
  const text = kind.kind === 'pdf' ? await pdfText(name, bytes) : decodeText(name, bytes);
  if (text.length > MAX_FILE_TEXT_CHARS)
    throw new AttachmentReadError(name, `“${name}” has ${text.length.toLocaleString('en')} characters of text: a file can have at most ${MAX_FILE_TEXT_CHARS.toLocaleString('en')}.`);
  return { ...base, text };
}

async function readBytes(file: Blob, onProgress: (fraction: number) => void): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(file.size);
  let done = 0;
  const reader = file.stream().getReader();
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    out.set(value.subarray(0, out.length - done), done);
    done += value.length;
    onProgress(file.size === 0 ? 1 : Math.min(1, done / file.size));
  }
  return done === out.length ? out : out.slice(0, done);
}

function decodeText(name: string, bytes: Uint8Array): string {
  try {
    // A BOM is dropped by the decoder; anything not UTF-8 is refused rather than sent garbled.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AttachmentReadError(name, `“${name}” is not UTF-8 text, so it cannot be sent as a text file.`);
  }
}

async function pdfText(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const { extractPdfText } = await import('./pdf-text.ts');
  return extractPdfText(name, bytes);
}
