import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkJsonSchema } from '../audit/testing/json-schema-check.ts';
import { ConversationFile } from './conversation-file-format.ts';
import { conversationJsonSchema } from './testing/conversation-json-schema.ts';

const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const committed = read('../../docs/conversation.schema.json') as Record<string, unknown>;
const sample = read('../../tests/fixtures/conversation/v1-sample.json') as Record<string, unknown>;

type Json = Record<string, unknown>;
const variations: [string, boolean, (file: Json) => void][] = [
  ['unchanged', true, () => undefined],
  ['another format', false, (file) => void (file.format = 'pausepoint.backup')],
  ['version 2', false, (file) => void (file.version = 2)],
  ['an extra top-level member', false, (file) => void (file.extra = 1)],
  ['no messages', true, (file) => void (file.messages = [])],
  ['a message of an unknown role', false, (file) => void ((file.messages as Json[])[0]!.role = 'model')],
  ['a pending card', true, (file) => void ((file.pausePoints as Json[])[0]!.status = 'pending')],
  ['a card of an unknown status', false, (file) => void ((file.pausePoints as Json[])[0]!.status = 'approved')],
  ['a conversation without instructions', true, (file) => void delete (file.conversation as Json).instructions],
  ['instructions too long', false, (file) => void ((file.conversation as Json).instructions = 'x'.repeat(8_001))],
  ['versions (Edit, Regenerate): a branch, and a message on it', true, (file) => withVersions(file)],
  ['a version branch forked at no place', false, (file) => void (withVersions(file).branches[0]!.from = -1)],
  ['versions without the current one named', false, (file) => void delete (withVersions(file) as Partial<Json>).current],
  ['a message on an unnamed branch', false, (file) => void ((file.messages as Json[])[0]!.branch = '')],
];

/** The sample with a second version of its first message's answer, as Regenerate stores it. */
function withVersions(file: Json): { current: string; rootActive: number; branches: Json[] } {
  const versions = { current: 'b1', rootActive: 0, branches: [{ id: 'b1', parent: '', from: 1, active: 1, createdAt: 1_700_000_000_000 }] };
  (file.conversation as Json).versions = versions;
  (file.messages as Json[]).at(-1)!.branch = 'b1';
  return versions;
}

describe('docs/conversation.schema.json (version 1)', () => {
  it('is the zod schema, converted: regenerate it with `npx tsx src/conversation-file/testing/write-conversation-json-schema.ts`', () => {
    expect(committed).toEqual(conversationJsonSchema());
  });

  it.each(variations)('agrees with the zod schema on a file with %s', (_name, valid, change) => {
    const file = structuredClone(sample);
    change(file);
    expect({ json: checkJsonSchema(committed, file).length === 0, zod: ConversationFile.safeParse(file).success }).toEqual({ json: valid, zod: valid });
  });
});
