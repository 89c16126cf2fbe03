import { z } from 'zod';
import { MAX_ATTACHMENT_NAME, MAX_FILE_BYTES, MAX_FILES_PER_MESSAGE } from './attachment-limits.ts';

/**
 * A file attached to a user message, as the message names it. The bytes live
 * beside it in storage (the `attachments` table), keyed by `id`; a message is
 * only ever written after its attachments' bytes, so a ref whose bytes are
 * missing means they never came to this device (a synced message) or were lost.
 */
export const AttachmentRef = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(MAX_ATTACHMENT_NAME),
  /** MIME type, as the file said or as its extension implies. */
  type: z.string().min(1).max(200),
  size: z.number().int().nonnegative().max(MAX_FILE_BYTES),
  /** SHA-256 of the bytes, lowercase hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  kind: z.enum(['image', 'text', 'pdf']),
});
export type AttachmentRef = z.infer<typeof AttachmentRef>;

export const AttachmentRefs = z.array(AttachmentRef).min(1).max(MAX_FILES_PER_MESSAGE);
