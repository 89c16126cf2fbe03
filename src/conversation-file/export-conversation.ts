import { APP_VERSION } from '../common/app-version.ts';
import type { PausepointDb } from '../storage/db.ts';
import { toStorageError } from '../storage/storage-error.ts';
import { CONVERSATION_FORMAT, CONVERSATION_VERSION, ConversationFile } from './conversation-file-format.ts';

/**
 * A conversation's export, read in one transaction (a run writing meanwhile
 * cannot leave half an answer in it) and checked against the format: a stored
 * record that no longer reads as its schema fails the export rather than
 * making a file the import would refuse. Undefined when the conversation is gone.
 */
export async function readConversationExport(db: PausepointDb, conversationId: string, now: () => number = Date.now): Promise<ConversationFile | undefined> {
  const read = await db
    .transaction('r', db.conversations, db.messages, db.pausePoints, async () => {
      const conversation = await db.conversations.get(conversationId);
      if (!conversation) return undefined;
      const messages = await db.messages.where('[conversationId+seq]').between([conversationId, -Infinity], [conversationId, Infinity]).toArray();
      const pausePoints = await db.pausePoints.where('conversationId').equals(conversationId).sortBy('createdAt');
      return { conversation, messages, pausePoints };
    })
    .catch((error: unknown) => {
      throw toStorageError(error);
    });
  if (!read) return undefined;
  return ConversationFile.parse({
    format: CONVERSATION_FORMAT,
    version: CONVERSATION_VERSION,
    exportedAt: new Date(now()).toISOString(),
    appVersion: APP_VERSION,
    ...read,
  });
}

/** The file's text: two-space indentation, as people read it too. */
export function conversationJson(file: ConversationFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
