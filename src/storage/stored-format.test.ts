import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ApprovalRule, Conversation, ConversationState, LedgerEntry, Message, PausePoint, PauseKind, PauseStatus } from '../engine/records/index.ts';
import { StoredSettings } from './settings-repo.ts';

/**
 * Stored records as earlier versions of the app wrote them. The fixtures are
 * history: never edit one to make a schema change pass. A change that breaks
 * parsing them needs a migration (and a new fixture folder), not a new sample.
 */
const FIXTURES = join(import.meta.dirname, '../../tests/fixtures/storage');

/** The file name's prefix (`pause-point.gate-declined.json`) names the schema. */
const SCHEMAS: Record<string, z.ZodType> = {
  conversation: Conversation,
  message: Message,
  'pause-point': PausePoint,
  'ledger-entry': LedgerEntry,
  'approval-rule': ApprovalRule,
  settings: StoredSettings,
};

function schemaOf(name: string): z.ZodType {
  const prefix = name.split('.')[0] ?? '';
  const schema = Object.hasOwn(SCHEMAS, prefix) ? SCHEMAS[prefix] : undefined;
  if (!schema) throw new Error(`Fixture ${name} does not start with a known schema name (${Object.keys(SCHEMAS).join(', ')}).`);
  return schema;
}

function readJson(folder: string, name: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, folder, name), 'utf8'));
}

function fixtureNames(folder: string): string[] {
  return readdirSync(join(FIXTURES, folder)).filter((name) => name.endsWith('.json')).sort();
}

const positives = fixtureNames('v1').map((name) => ({ name, record: readJson('v1', name) }));

describe('stored format v1', () => {
  it.each(positives)('$name parses, keeping every field', ({ name, record }) => {
    const parsed = schemaOf(name).safeParse(record);
    expect(parsed.error).toBeUndefined();
    // Catches a field the schema would silently strip: that data would be lost on the next write.
    expect(parsed.data).toMatchObject(record as object);
  });

  it('has a sample of every state, role, pause kind, status and origin, and ledger status', () => {
    const records = (prefix: string) => positives.filter(({ name }) => name.startsWith(`${prefix}.`));
    const conversations = records('conversation').map(({ record }) => Conversation.parse(record));
    const messages = records('message').map(({ record }) => Message.parse(record));
    const pausePoints = records('pause-point').map(({ record }) => PausePoint.parse(record));
    const ledger = records('ledger-entry').map(({ record }) => LedgerEntry.parse(record));
    const distinct = <T>(values: T[]) => [...new Set(values)].sort();

    expect(distinct(conversations.map((c) => c.state.kind))).toEqual(distinct(ConversationState.options.map((o) => o.shape.kind.value)));
    expect(distinct(messages.map((m) => m.role))).toEqual(distinct(Message.options.map((o) => o.shape.role.value)));
    expect(distinct(pausePoints.map((p) => p.kind))).toEqual(distinct([...PauseKind.options]));
    expect(distinct(pausePoints.map((p) => p.status))).toEqual(distinct([...PauseStatus.options]));
    expect(distinct(pausePoints.map((p) => p.origin))).toEqual(distinct([...PausePoint.shape.origin.options]));
    expect(distinct(ledger.map((e) => e.status))).toEqual(distinct([...LedgerEntry.shape.status.options]));
    expect(pausePoints.some((p) => p.origin === 'gate' && p.editedPayload !== undefined && p.decidedBy)).toBe(true);
    expect(messages.some((m) => m.role === 'assistant' && m.toolCalls.length > 0)).toBe(true);
    const rules = records('approval-rule').map(({ record }) => ApprovalRule.parse(record));
    expect(distinct(rules.map((r) => r.effect))).toEqual(distinct([...ApprovalRule.shape.effect.options]));
    expect(distinct(rules.flatMap((r) => r.match.map((m) => m.kind)))).toEqual(distinct(['equals', 'one_of', 'glob', 'at_most', 'at_least', 'url']));
    expect(distinct(rules.map((r) => r.scope.kind))).toEqual(['conversation', 'everywhere']);
  });
});

interface NegativeFixture {
  schema: string;
  /** Why the record must be refused. */
  why: string;
  /** Where the refusal must be reported: the fixture fails for its stated reason, not another. */
  path: (string | number)[];
  record: unknown;
}

describe('stored format: records that must be refused', () => {
  const negatives = fixtureNames('invalid').map((name) => ({ name, fixture: readJson('invalid', name) as NegativeFixture }));

  it.each(negatives)('$name is refused ($fixture.why)', ({ name, fixture }) => {
    expect(name.startsWith(`${fixture.schema}.`)).toBe(true);
    const parsed = schemaOf(name).safeParse(fixture.record);
    expect(parsed.success).toBe(false);
    const paths = parsed.error?.issues.map((issue) => issue.path.slice(0, fixture.path.length)) ?? [];
    expect(paths).toContainEqual(fixture.path);
  });
});
