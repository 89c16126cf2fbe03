import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AuditLogFile } from './audit-entry.ts';
import { AuditLogFileV1 } from './audit-log-v1.ts';
import { AuditLogFileV2 } from './audit-log-v2.ts';
import { AuditLogFileV3 } from './audit-log-v3.ts';
import { auditJsonSchema, auditJsonSchemaV1, auditJsonSchemaV2, auditJsonSchemaV3 } from './testing/audit-json-schema.ts';
import { checkJsonSchema } from './testing/json-schema-check.ts';
import { RULE_SCENARIO } from './testing/seed-rule-and-mcp-records.ts';

const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const committedV1 = read('../../docs/audit-log-v1.schema.json');
const committedV2 = read('../../docs/audit-log-v2.schema.json');
const committedV3 = read('../../docs/audit-log-v3.schema.json');
const committed = read('../../docs/audit-log.schema.json');
const sampleV1 = read('./fixtures/audit-log-v1.json') as Record<string, unknown>;
const sampleV2 = read('./fixtures/audit-log-v2.json') as Record<string, unknown>;
const sampleV3 = read('./fixtures/audit-log-v3.json') as Record<string, unknown>;
const sample = read('./fixtures/audit-log-v4.json') as Record<string, unknown>;

type Json = Record<string, unknown>;
const clone = (): Json => structuredClone(sampleV1);
const cloneV2 = (): Json => structuredClone(sampleV2);
const cloneV3 = (): Json => structuredClone(sampleV3);
const cloneV4 = (): Json => structuredClone(sample);
const entry = (file: Json, index = 0): Json => (file.entries as Json[])[index]!;
const entryById = (file: Json, id: string): Json => (file.entries as Json[]).find((e) => e.id === id)!;

/** Variations of a real file, whether they are valid: both schemas must say so. */
const variations: [string, boolean, (file: Json) => void][] = [
  ['unchanged', true, () => undefined],
  ['no entries', true, (file) => void (file.entries = [])],
  ['an extra top-level member', false, (file) => void (file.extra = 1)],
  ['a missing head_hash', false, (file) => void delete file.head_hash],
  ['an upper-case hash', false, (file) => void (file.head_hash = String(file.head_hash).toUpperCase())],
  ['version 2', false, (file) => void (file.version = 2)],
  ['a foreign format', false, (file) => void (file.format = 'other')],
  ['a negative entry_count', false, (file) => void (file.entry_count = -1)],
  ['a fractional entry_count', false, (file) => void (file.entry_count = 1.5)],
  ['an unknown status', false, (file) => void (entry(file).status = 'approved')],
  ['an unknown kind', false, (file) => void (entry(file).kind = 'vote')],
  ['a time without milliseconds', false, (file) => void (entry(file).created_at = '2025-01-15T09:01:00Z')],
  ['a null resolved_at', true, (file) => void (entry(file).resolved_at = null)],
  ['a missing payload', false, (file) => void delete entry(file).payload],
  ['a null payload', true, (file) => void (entry(file).payload = null)],
  ['an array payload', true, (file) => void (entry(file).payload = [1, 'two'])],
  ['a missing reason', false, (file) => void delete entry(file).reason],
  ['a numeric reason', false, (file) => void (entry(file).reason = 5)],
  ['options with a number', false, (file) => void (entry(file).options = ['a', 1])],
  ['an extra entry member', false, (file) => void (entry(file).approved_by = 'me')],
  ['decided_by without label', false, (file) => void delete (entry(file).decided_by as Json).label],
  ['a null decided_by', true, (file) => void (entry(file).decided_by = null)],
  ['a ledger with zero attempts', false, (file) => void ((entry(file).ledger as Json).attempts = 0)],
  ['a null ledger', true, (file) => void (entry(file).ledger = null)],
  ['an unknown tool outcome', false, (file) => void ((entry(file).tool_results as Json[])[0]!.outcome = 'exploded')],
  ['a negative turn index', false, (file) => void (entry(file).turn_index = -1)],
  ['an unknown expired_reason', false, (file) => void (entry(file).expired_reason = 'bored')],
  ['a filters member missing', false, (file) => void delete ((file.metadata as Json).filters as Json).text],
  ['a null device id', true, (file) => void ((file.metadata as Json).device_id = null)],
  ['a skipped record', true, (file) => void (file.skipped_records = [{ id: 'x', reason: 'bad' }])],
  ['a skipped record without reason', false, (file) => void (file.skipped_records = [{ id: 'x' }])],
];

/** Variations of a version 2 file: the members it adds, and members added after it. */
const variationsV2: [string, boolean, (file: Json) => void][] = [
  ['unchanged', true, () => undefined],
  ['version 1', false, (file) => void (file.version = 1)],
  ['an unknown entry_type', false, (file) => void (entry(file).entry_type = 'vote')],
  ['a missing entry_type', false, (file) => void delete entry(file).entry_type],
  ['a missing decision_origin', false, (file) => void delete entry(file).decision_origin],
  ['an unknown decision_origin', false, (file) => void (entry(file).decision_origin = 'robot')],
  ['a rule without its text', false, (file) => void delete (entryById(file, RULE_SCENARIO.ruleAllowed).rule as Json).text],
  ['an mcp without its server_url', false, (file) => void delete (entryById(file, RULE_SCENARIO.mcpApproved).mcp as Json).server_url],
  ['a numeric definition_hash', false, (file) => void (entry(file).definition_hash = 5)],
  ['an optional member added after version 2', true, (file) => void (entry(file).usage = { input_tokens: 10 })],
  ['a v1 member missing', false, (file) => void delete entry(file).payload],
  ['an extra top-level member', false, (file) => void (file.extra = 1)],
];

describe('docs/audit-log-v1.schema.json (version 1, frozen)', () => {
  it('is the version 1 zod schema, converted', () => {
    expect(committedV1).toEqual(auditJsonSchemaV1());
  });

  it.each(variations)('agrees with the zod schema on a file with %s', (_name, valid, change) => {
    const file = clone();
    change(file);
    expect({ json: checkJsonSchema(committedV1, file).length === 0, zod: AuditLogFileV1.safeParse(file).success }).toEqual({ json: valid, zod: valid });
  });

  it('accepts the unchanged file and refuses a broken one (the checker is not vacuous)', () => {
    expect(checkJsonSchema(committedV1, clone())).toEqual([]);
    const broken = clone();
    entry(broken).status = 'approved';
    expect(checkJsonSchema(committedV1, broken)).toEqual([expect.objectContaining({ path: '$.entries[0].status' })]);
  });
});

describe('docs/audit-log-v2.schema.json (version 2, frozen)', () => {
  it('is the version 2 zod schema, converted', () => {
    expect(committedV2).toEqual(auditJsonSchemaV2());
  });

  it.each(variationsV2)('agrees with the zod schema on a file with %s', (_name, valid, change) => {
    const file = cloneV2();
    change(file);
    expect({ json: checkJsonSchema(committedV2, file).length === 0, zod: AuditLogFileV2.safeParse(file).success }).toEqual({ json: valid, zod: valid });
  });

  it('refuses a dry run: version 2 has no such entry', () => {
    const file = cloneV2();
    (file.entries as Json[]).push(structuredClone(entryById(cloneV3(), RULE_SCENARIO.dryRun)));
    expect({ json: checkJsonSchema(committedV2, file).length === 0, zod: AuditLogFileV2.safeParse(file).success }).toEqual({ json: false, zod: false });
  });
});

/** Variations of a version 3 file: what it adds to version 2's decisions, and its dry run. */
const variationsV3: [string, boolean, (file: Json) => void][] = [
  ['unchanged', true, () => undefined],
  ['version 2', false, (file) => void (file.version = 2)],
  ['a missing decided_via', false, (file) => void delete entry(file).decided_via],
  ['an unknown decided_via', false, (file) => void (entry(file).decided_via = 'carrier pigeon')],
  ['a null decided_via', true, (file) => void (entry(file).decided_via = null)],
  ['a missing decided_by_device', false, (file) => void delete entry(file).decided_by_device],
  ['a decided_by_device without its name', false, (file) => void delete (entry(file).decided_by_device as Json).name],
  ['a decided_by_device with an extra member', false, (file) => void ((entry(file).decided_by_device as Json).tab = 'x')],
  ['a null decided_by_device', true, (file) => void (entry(file).decided_by_device = null)],
  ['a v2 member missing', false, (file) => void delete entry(file).decision_origin],
  ['a dry run without what it would have done', false, (file) => void delete entryById(file, RULE_SCENARIO.dryRun).would],
  ['a dry run that would have voted', false, (file) => void (entryById(file, RULE_SCENARIO.dryRun).would = 'vote')],
  ['a dry run without its tool call', false, (file) => void delete entryById(file, RULE_SCENARIO.dryRun).tool_call_id],
  ['a rule snapshot without dry_run', false, (file) => void delete (entryById(file, RULE_SCENARIO.allowCreated).rule as Json).dry_run],
  ['an optional member added after version 3', true, (file) => void (entry(file).usage = { input_tokens: 10 })],
];

describe('docs/audit-log-v3.schema.json (version 3, frozen)', () => {
  it('is the version 3 zod schema, converted', () => {
    expect(committedV3).toEqual(auditJsonSchemaV3());
  });

  it.each(variationsV3)('agrees with the zod schema on a file with %s', (_name, valid, change) => {
    const file = cloneV3();
    change(file);
    expect({ json: checkJsonSchema(committedV3, file).length === 0, zod: AuditLogFileV3.safeParse(file).success }).toEqual({ json: valid, zod: valid });
  });
});

const signature = (file: Json): Json => entry(file).device_signature as Json;

/** Variations of a version 4 file: the devices it lists and the signature each decision carries. */
const variationsV4: [string, boolean, (file: Json) => void][] = [
  ['unchanged', true, () => undefined],
  ['version 3', false, (file) => void (file.version = 3)],
  ['no devices member', false, (file) => void delete file.devices],
  ['no devices', true, (file) => void (file.devices = [])],
  ['a device without its name', false, (file) => void delete (file.devices as Json[])[0]!.name],
  ['a device whose key is not P-256', false, (file) => void (((file.devices as Json[])[0]!.public_key as Json).crv = 'P-384')],
  ['a device key with a private member', false, (file) => void (((file.devices as Json[])[0]!.public_key as Json).d = 'A'.repeat(43))],
  ['a decision without a signature', true, (file) => void delete entry(file).device_signature],
  ['a signature of another algorithm', false, (file) => void (signature(file).alg = 'RS256')],
  ['a signature without key_id', false, (file) => void delete signature(file).key_id],
  ['a signature whose value is DER, not raw', false, (file) => void (signature(file).value = `MEUCIQ${'A'.repeat(90)}`)],
  ['a signature whose signed is not an object', false, (file) => void (signature(file).signed = 'approve')],
  ['a signature with an extra member', false, (file) => void (signature(file).x5c = [])],
  ['a v3 member missing', false, (file) => void delete entry(file).decided_via],
];

describe('docs/audit-log.schema.json (version 4)', () => {
  it('is the zod schema, converted: regenerate it with `npx tsx src/audit/testing/write-audit-json-schema.ts`', () => {
    expect(committed).toEqual(auditJsonSchema());
  });

  it.each(variationsV4)('agrees with the zod schema on a file with %s', (_name, valid, change) => {
    const file = cloneV4();
    change(file);
    expect({ json: checkJsonSchema(committed, file).length === 0, zod: AuditLogFile.safeParse(file).success }).toEqual({ json: valid, zod: valid });
  });

  it('refuses to check with keywords it does not implement', () => {
    expect(() => checkJsonSchema({ type: 'object', patternProperties: {} }, {})).toThrow(/does not support "patternProperties"/);
  });
});
