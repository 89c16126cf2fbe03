/**
 * Regenerates docs/audit-log.schema.json (the current version) and
 * the frozen versions' docs/audit-log-v1.schema.json, -v2 and -v3 from the zod schemas:
 *   npx tsx src/audit/testing/write-audit-json-schema.ts
 * Run it after changing src/audit/audit-entry.ts (and bump the format version if
 * a reader of the current version would refuse the new files).
 */
import { writeFileSync } from 'node:fs';
import { auditJsonSchema, auditJsonSchemaV1, auditJsonSchemaV2, auditJsonSchemaV3, schemaText } from './audit-json-schema.ts';

for (const [name, schema] of [
  ['audit-log.schema.json', auditJsonSchema()],
  ['audit-log-v1.schema.json', auditJsonSchemaV1()],
  ['audit-log-v2.schema.json', auditJsonSchemaV2()],
  ['audit-log-v3.schema.json', auditJsonSchemaV3()],
] as const) {
  const target = new URL(`../../../docs/${name}`, import.meta.url);
  writeFileSync(target, schemaText(schema));
  console.log(`Wrote ${target.pathname}`);
}
