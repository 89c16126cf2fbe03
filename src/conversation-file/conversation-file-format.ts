import { z } from 'zod';
import { Conversation, Message, PausePoint } from '../engine/records/index.ts';

/**
 * One conversation exported as JSON (Export as JSON), version 1:
 *
 * ```
 * { "format": "pausepoint.conversation", "version": 1, "exportedAt": ISO time, "appVersion": "0.1.0",
 *   "conversation": {...}, "messages": [...], "pausePoints": [...] }
 * ```
 *
 * The records are as the database holds them (camelCase, each with its own
 * `v`), messages in `seq` order: what the person saw, and every card with its
 * decision. The execution ledger is left out: an exported conversation is
 * history to read or bring into another browser, never calls to run again.
 * `docs/conversation.schema.json` is this schema converted (a test keeps them
 * equal). A change that stops version 1 files parsing needs a new version.
 */
export const CONVERSATION_FORMAT = 'pausepoint.conversation';
export const CONVERSATION_VERSION = 1;

export const ConversationFile = z.strictObject({
  format: z.literal(CONVERSATION_FORMAT),
  version: z.literal(CONVERSATION_VERSION),
  exportedAt: z.iso.datetime(),
  appVersion: z.string(),
  conversation: Conversation,
  messages: z.array(Message),
  pausePoints: z.array(PausePoint),
});
export type ConversationFile = z.infer<typeof ConversationFile>;

/** `pausepoint-<title>-<date>.<ext>`: the title cut to what a file name can safely hold. */
export function conversationFileName(title: string, at: Date, extension: 'json' | 'md'): string {
  const slug =
    title
      .normalize('NFKD')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 60) || 'conversation';
  return `pausepoint-${slug}-${at.toISOString().slice(0, 10)}.${extension}`;
}
