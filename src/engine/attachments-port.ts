import type { AttachmentRef, Message } from './records/index.ts';

/**
 * What the model is sent for one attachment: an image as a data: URL, a text
 * file (or a PDF's text, extracted once when it was attached) as text.
 */
export type AttachmentContent = { kind: 'image'; dataUrl: string } | { kind: 'text'; text: string };

/** The attachments' bytes, stored beside the messages that name them (the Dexie side: src/storage/attachments-repo.ts). */
export interface AttachmentsPort {
  /**
   * The content of each ref whose bytes are on this device, by ref id. A ref
   * missing from the answer has no bytes here (a message that came by sync):
   * the request says so in its place.
   */
  read(refs: readonly AttachmentRef[]): Promise<ReadonlyMap<string, AttachmentContent>>;
}

export const NO_ATTACHMENTS: AttachmentsPort = { read: () => Promise.resolve(new Map()) };

/** Every attachment the history's user messages name, in order. */
export function attachmentsOf(history: readonly Message[]): AttachmentRef[] {
  const refs: AttachmentRef[] = [];
  for (const message of history) if (message.role === 'user' && message.attachments) refs.push(...message.attachments);
  return refs;
}
