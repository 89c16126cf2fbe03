/**
 * Regenerates docs/audit-log.schema.json (the current version) and
 * docs/audit-log-v2.schema.json and docs/audit-log-v1.schema.json from the zod schemas:
 *   npx tsx src/audit/testing/write-audit-json-schema.ts
 * Run it after changing src/audit/audit-entry.ts (and bump the format version if
 * a reader of the current version would refuse the new files).
 */
import { writeFileSync } from 'node:fs';
import { auditJsonSchema, auditJsonSchemaV1, auditJsonSchemaV2, schemaText } from './audit-json-schema.ts';

for (const [name, schema] of [
  ['audit-log.schema.json', auditJsonSchema()],
  ['audit-log-v2.schema.json', auditJsonSchemaV2()],
  ['audit-log-v1.schema.json', auditJsonSchemaV1()],
] as const) {
  const target = new URL(`../../../docs/${name}`, import.meta.url);
  writeFileSync(target, schemaText(schema));
  console.log(`Wrote ${target.pathname}`);
}
