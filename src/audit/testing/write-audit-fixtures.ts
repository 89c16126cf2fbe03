/**
 * Writes the version 4 fixtures of src/audit/fixtures from the audit scenarios:
 *   npx tsx src/audit/testing/write-audit-fixtures.ts
 * Run once, when a version is made: the fixtures then stay as they are, as
 * files an earlier build exported, and tests check that they still verify.
 * (Versions 1 to 3's were written the same way by the builds that wrote them.)
 */
import 'fake-indexeddb/auto';
import { writeFileSync } from 'node:fs';
import Dexie from 'dexie';
import { newDeviceIdentity } from '../../identity/device-identity.ts';
import { PausepointDb } from '../../storage/db.ts';
import { exportAuditLog } from '../export-audit-log.ts';
import { rechain } from './rechain.ts';
import { OTHER_DEVICE, SCENARIO, seedAuditDb } from './seed-audit-db.ts';
import { dryRunEvent, RULE_SCENARIO, seedRuleAndMcpRecords } from './seed-rule-and-mcp-records.ts';
import { signSeededDecisions } from './sign-seeded-decisions.ts';

const name = `audit-fixtures-${Date.now()}`;
const db = new PausepointDb(name);
await db.open();
await seedAuditDb(db);
await seedRuleAndMcpRecords(db);
// This decision was made on the phone and reached this browser through the sync server, signed by the phone.
await db.pausePoints.update(SCENARIO.edited, { decidedBy: { ...OTHER_DEVICE, via: 'sync' } });
await db.auditEvents.put(dryRunEvent());
// Version 4: every decision signed by the device that made it. The file lists this device alone (no membership log yet).
await signSeededDecisions(db, { [OTHER_DEVICE.deviceId]: await newDeviceIdentity() });
const chunks: string[] = [];
await exportAuditLog(db, {}, (chunk) => void chunks.push(chunk), undefined, { deviceId: 'device-fixture', now: () => Date.UTC(2026, 11, 5, 12) });
db.close();
await Dexie.delete(name);

const text = chunks.join('');
const write = (file: string, content: string) => {
  const target = new URL(`../fixtures/${file}`, import.meta.url);
  writeFileSync(target, content);
  console.log(`Wrote ${target.pathname}`);
};
write('audit-log-v4.json', text);
// A rule's refusal turned into an approval after export: that entry no longer matches its hash.
const lines = text.split('\n');
const denied = lines.findIndex((line) => line.includes(`"id":"${RULE_SCENARIO.ruleDenied}"`));
lines[denied] = lines[denied]!.replace('"resolution":"decline"', '"resolution":"approve"');
write('tampered-entry-v4.json', lines.join('\n'));
// The same edit, with the signed object edited to match and every hash computed again (the chain needs no key):
// only the signature, which needs the device's private key, still says the entry was changed.
type Json = Record<string, unknown>;
const file = JSON.parse(text) as Json;
for (const entry of file.entries as Json[]) {
  if (entry.id !== RULE_SCENARIO.ruleDenied) continue;
  entry.resolution = 'approve';
  (entry.device_signature as { signed: Json }).signed.resolution = 'approve';
}
write('resigned-entry-v4.json', `${JSON.stringify(rechain(file))}\n`);
// The devices list edited to swap in another key: the first entry no longer follows the file's head.
const other = await newDeviceIdentity();
const listed = (file.devices as Json[])[0]!;
write('tampered-devices-v4.json', text.replace(JSON.stringify(listed.public_key), JSON.stringify(other.publicKey)));
