/**
 * Where a foreign record comes from, which decides which of the inert path's
 * rules apply (see docs/security.md, "One inert path for foreign records").
 */

/** A file the person chose: a backup being restored, or a conversation file or ChatGPT export being imported. */
export interface FromFile {
  source: 'backup' | 'import';
  /** When it is brought in: no time in it may lie after this. */
  at: number;
  /** The id the conversation is written under (see inert-conversation.ts). */
  conversationId: string;
  uuid: () => string;
}

/** One of the person's paired devices, through the sync server: the device that wrote the document, and when it arrived. */
export interface FromDevice {
  deviceId: string;
  at: number;
}
