import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AuditLogFile } from './audit-entry.ts';
import { auditJsonSchema } from './testing/audit-json-schema.ts';
import { checkJsonSchema } from './testing/json-schema-check.ts';

const committed: unknown = JSON.parse(readFileSync(new URL('../../docs/audit-log.schema.json', import.meta.url), 'utf8'));
const sample = JSON.parse(readFileSync(new URL('./fixtures/audit-log-v1.json', import.meta.url), 'utf8')) as Record<string, unknown>;

type Json = Record<string, unknown>;
const clone = (): Json => structuredClone(sample);
const entry = (file: Json, index = 0): Json => (file.entries as Json[])[index]!;

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

describe('docs/audit-log.schema.json', () => {
  it('is the zod schema, converted: regenerate it with `npx tsx src/audit/testing/write-audit-json-schema.ts`', () => {
    expect(committed).toEqual(auditJsonSchema());
  });

  it.each(variations)('agrees with the zod schema on a file with %s', (_name, valid, change) => {
    const file = clone();
    change(file);
    expect({ json: checkJsonSchema(committed, file).length === 0, zod: AuditLogFile.safeParse(file).success }).toEqual({ json: valid, zod: valid });
  });

  it('accepts the unchanged file and refuses a broken one (the checker is not vacuous)', () => {
    expect(checkJsonSchema(committed, clone())).toEqual([]);
    const broken = clone();
    entry(broken).status = 'approved';
    expect(checkJsonSchema(committed, broken)).toEqual([expect.objectContaining({ path: '$.entries[0].status' })]);
  });

  it('refuses to check with keywords it does not implement', () => {
    expect(() => checkJsonSchema({ type: 'object', patternProperties: {} }, {})).toThrow(/does not support "patternProperties"/);
  });
});
