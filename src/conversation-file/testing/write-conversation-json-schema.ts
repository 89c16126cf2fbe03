/**
 * Regenerates docs/conversation.schema.json from the zod schema:
 *   npx tsx src/conversation-file/testing/write-conversation-json-schema.ts
 * Run it after changing a record schema or conversation-file-format.ts (and bump
 * the format version if a reader of version 1 would refuse the new files).
 */
import { writeFileSync } from 'node:fs';
import { conversationJsonSchemaText } from './conversation-json-schema.ts';

const target = new URL('../../../docs/conversation.schema.json', import.meta.url);
writeFileSync(target, conversationJsonSchemaText());
console.log(`Wrote ${target.pathname}`);
