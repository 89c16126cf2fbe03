import { syntheticBackupParts, type SyntheticBackup } from './synthetic-backup.ts';

/**
 * The synthetic backup as a Blob, made a megabyte at a time: in Node a Blob's
 * bytes live outside the JavaScript heap, so the file can be far larger than
 * the heap of the process that restores it (as a chosen file is, in a browser).
 */
export function syntheticBackupBlob(spec: SyntheticBackup): Blob {
  const blobs: Blob[] = [];
  let parts: string[] = [];
  let length = 0;
  for (const part of syntheticBackupParts(spec)) {
    parts.push(part);
    length += part.length;
    if (length >= 1_000_000) {
      blobs.push(new Blob(parts));
      parts = [];
      length = 0;
    }
  }
  blobs.push(new Blob(parts));
  return new Blob(blobs, { type: 'application/json' });
}
