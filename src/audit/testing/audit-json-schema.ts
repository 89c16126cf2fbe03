import { z } from 'zod';
import { AuditLogFile } from '../audit-entry.ts';

/**
 * The JSON Schema of the audit file, derived from the zod schema the app uses.
 * `docs/audit-log.schema.json` is this object written out; a test keeps them
 * equal, so the published schema cannot drift from what the app writes and reads.
 */
export function auditJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(AuditLogFile, { target: 'draft-2020-12', unrepresentable: 'throw' });
}

/** The file's text: two-space indentation and a final newline. */
export function auditJsonSchemaText(): string {
  return `${JSON.stringify(auditJsonSchema(), null, 2)}\n`;
}
