import { z } from 'zod';
import { AuditLogFile } from '../audit-entry.ts';
import { AuditLogFileV1 } from '../audit-log-v1.ts';
import { AuditLogFileV2 } from '../audit-log-v2.ts';
import { AuditLogFileV3 } from '../audit-log-v3.ts';

/**
 * The JSON Schema of the audit file, derived from the zod schema the app uses.
 * `docs/audit-log.schema.json` is this object written out (the current
 * version), `docs/audit-log-v1.schema.json`, `-v2` and `-v3` the same for the frozen versions; a test
 * keeps them equal, so the published schemas cannot drift from what the app
 * writes and reads.
 */
export function auditJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(AuditLogFile, { target: 'draft-2020-12', unrepresentable: 'throw' });
}

export function auditJsonSchemaV3(): Record<string, unknown> {
  return z.toJSONSchema(AuditLogFileV3, { target: 'draft-2020-12', unrepresentable: 'throw' });
}

export function auditJsonSchemaV2(): Record<string, unknown> {
  return z.toJSONSchema(AuditLogFileV2, { target: 'draft-2020-12', unrepresentable: 'throw' });
}

export function auditJsonSchemaV1(): Record<string, unknown> {
  return z.toJSONSchema(AuditLogFileV1, { target: 'draft-2020-12', unrepresentable: 'throw' });
}

/** A schema file's text: two-space indentation and a final newline. */
export function schemaText(schema: Record<string, unknown>): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

export function auditJsonSchemaText(): string {
  return schemaText(auditJsonSchema());
}
