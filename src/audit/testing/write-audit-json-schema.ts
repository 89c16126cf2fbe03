/**
 * Regenerates docs/audit-log.schema.json from the zod schema:
 *   npx tsx src/audit/testing/write-audit-json-schema.ts
 * Run it after changing src/audit/audit-entry.ts (and bump the format version if
 * a version 1 reader would refuse the new files).
 */
import { writeFileSync } from 'node:fs';
import { auditJsonSchemaText } from './audit-json-schema.ts';

const target = new URL('../../../docs/audit-log.schema.json', import.meta.url);
writeFileSync(target, auditJsonSchemaText());
console.log(`Wrote ${target.pathname}`);
