import type { AttachmentRef } from '../engine/records/index.ts';

/**
 * One attached file's bytes (the `attachments` table), keyed by the id its
 * message's ref names, with the ref's own fields. Written before the message
 * that names it; deleted with that message's conversation.
 */
export interface StoredAttachment extends AttachmentRef {
  v: 1;
  blob: Blob;
  /** A text file's text, or a PDF's, read once when it was attached: a request never parses the file again. */
  text?: string;
  createdAt: number;
}

/** The ref a message carries for a stored attachment. */
export function refOf({ id, name, type, size, sha256, kind }: StoredAttachment): AttachmentRef {
  return { id, name, type, size, sha256, kind };
}
