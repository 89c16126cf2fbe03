import type { PausepointDb } from '../storage/db.ts';
import { conversationFileName } from './conversation-file-format.ts';
import { conversationMarkdown } from './conversation-markdown.ts';
import { conversationJson, readConversationExport } from './export-conversation.ts';

/**
 * What Export as Markdown or Export as JSON saves: the file and its name. One
 * module for the page to load on demand, so exporting costs opening a
 * conversation nothing. Undefined when the conversation is gone.
 */
export async function conversationDownload(db: PausepointDb, conversationId: string, kind: 'md' | 'json'): Promise<{ blob: Blob; name: string } | undefined> {
  const file = await readConversationExport(db, conversationId);
  if (!file) return undefined;
  const name = conversationFileName(file.conversation.title, new Date(file.exportedAt), kind);
  const blob = kind === 'json' ? new Blob([conversationJson(file)], { type: 'application/json' }) : new Blob([conversationMarkdown(file)], { type: 'text/markdown' });
  return { blob, name };
}
