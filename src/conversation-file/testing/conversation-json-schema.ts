import { z } from 'zod';
import { ConversationFile } from '../conversation-file-format.ts';

/**
 * The JSON Schema of a conversation file (Export as JSON), derived from the
 * zod schema the app writes and reads it with. `docs/conversation.schema.json`
 * is this written out; a test keeps them equal.
 */
export function conversationJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ConversationFile, { target: 'draft-2020-12', unrepresentable: 'throw' });
}

/** A schema file's text: two-space indentation and a final newline. */
export function conversationJsonSchemaText(): string {
  return `${JSON.stringify(conversationJsonSchema(), null, 2)}\n`;
}
