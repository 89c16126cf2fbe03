/**
 * Writes the version 3 fixtures of src/audit/fixtures from the audit scenarios:
 *   npx tsx src/audit/testing/write-audit-fixtures.ts
 * Run once, when a version is made: the fixtures then stay as they are, as
 * files an earlier build exported, and tests check that they still verify.
 * (Versions 1 and 2's were written the same way by the builds that wrote them.)
 */
import 'fake-indexeddb/auto';
import { writeFileSync } from 'node:fs';
import Dexie from 'dexie';
import { PausepointDb } from '../../storage/db.ts';
import { exportAuditLog } from '../export-audit-log.ts';
import { OTHER_DEVICE, SCENARIO, seedAuditDb } from './seed-audit-db.ts';
import { dryRunEvent, RULE_SCENARIO, seedRuleAndMcpRecords } from './seed-rule-and-mcp-records.ts';

const name = `audit-fixtures-${Date.now()}`;
const db = new PausepointDb(name);
await db.open();
await seedAuditDb(db);
await seedRuleAndMcpRecords(db);
// Version 3 says how a decision came: this one was made on the phone and reached this browser through the sync server.
await db.pausePoints.update(SCENARIO.edited, { decidedBy: { ...OTHER_DEVICE, via: 'sync' } });
// Version 3 also records what a dry-run rule would have decided.
await db.auditEvents.put(dryRunEvent());
const chunks: string[] = [];
await exportAuditLog(db, {}, (chunk) => void chunks.push(chunk), undefined, { deviceId: 'device-fixture', now: () => Date.UTC(2026, 11, 2, 12) });
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
// The metadata edited to claim the file is a filtered export: the first entry no longer follows it.
write('tampered-metadata-v3.json', text.replace('"tool_name":null', '"tool_name":"send_email"'));
// A record left out of the export, then its mention removed: the seal no longer matches.
const file = JSON.parse(text) as { skipped_records: unknown[] };
write('tampered-skipped-v3.json', text.replace(`"skipped_records":${JSON.stringify(file.skipped_records)}`, '"skipped_records":[{"id":"pp-hidden","reason":"edited in"}]'));
