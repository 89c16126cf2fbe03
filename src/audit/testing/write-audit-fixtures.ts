/**
 * Writes the version 3 fixtures of src/audit/fixtures from the audit scenarios
 * (version 2's, audit-log-v2.json and tampered-entry-v2.json, were written by
 * the build that wrote version 2, from the same scenarios without the dry run):
 *   npx tsx src/audit/testing/write-audit-fixtures.ts
 * Run once, when a version is made: the fixtures then stay as they are, as
 * files an earlier build exported, and tests check that they still verify.
 * (Version 1's were written the same way by the build that wrote version 1.)
 */
import 'fake-indexeddb/auto';
import { writeFileSync } from 'node:fs';
import Dexie from 'dexie';
import { PausepointDb } from '../../storage/db.ts';
import { exportAuditLog } from '../export-audit-log.ts';
import { seedAuditDb } from './seed-audit-db.ts';
import { dryRunEvent, RULE_SCENARIO, seedRuleAndMcpRecords } from './seed-rule-and-mcp-records.ts';

const name = `audit-fixtures-${Date.now()}`;
const db = new PausepointDb(name);
await db.open();
await seedAuditDb(db);
await seedRuleAndMcpRecords(db);
await db.auditEvents.put(dryRunEvent());
const chunks: string[] = [];
await exportAuditLog(db, {}, (chunk) => void chunks.push(chunk), undefined, { deviceId: 'device-fixture', now: () => Date.UTC(2026, 0, 10, 12) });
db.close();
await Dexie.delete(name);

const text = chunks.join('');
const write = (file: string, content: string) => {
  const target = new URL(`../fixtures/${file}`, import.meta.url);
  writeFileSync(target, content);
  console.log(`Wrote ${target.pathname}`);
};
write('audit-log-v3.json', text);
// A rule's refusal turned into an approval after export: that entry no longer matches its hash.
const lines = text.split('\n');
const denied = lines.findIndex((line) => line.includes(`"id":"${RULE_SCENARIO.ruleDenied}"`));
lines[denied] = lines[denied]!.replace('"resolution":"decline"', '"resolution":"approve"');
write('tampered-entry-v3.json', lines.join('\n'));
