import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../storage/testing/open-test-db.ts';
import { canonicalJson } from './canonical-json.ts';
import { exportAuditLog } from './export-audit-log.ts';
import { chainSeal, chainStart } from './hash-chain.ts';
import { sha256Hex } from './sha256.ts';
import { newDeviceIdentity } from '../identity/device-identity.ts';
import { deviceIdentity } from '../identity/identity-store.ts';
import { deriveSyncKeys, newDataKey } from '../sync/crypto/data-key.ts';
import { newAgreementKeys } from '../sync/crypto/key-grant.ts';
import { EMPTY_MEMBERSHIP, fold } from '../sync/membership/membership-state.ts';
import { appendStoredLog } from '../sync/membership/membership-store.ts';
import { joinEntry } from '../sync/membership/membership-writer.ts';
import { OTHER_DEVICE, SCENARIO, seedAuditDb } from './testing/seed-audit-db.ts';
import { rechain } from './testing/rechain.ts';
import { signSeededDecisions } from './testing/sign-seeded-decisions.ts';
import { MCP_ENGINE_HASH, MCP_SERVER, RULE_SCENARIO, WEATHER_HASH } from './testing/seed-rule-and-mcp-records.ts';
import { verifyAuditFile, type VerifyResult } from './verify-audit-file.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

interface FileShape {
  format: string;
  version: number;
  metadata: { exported_at: string; device_id: string | null; filters: Record<string, unknown> };
  entries: Record<string, unknown>[];
  entry_count: number;
  head_hash: string;
  skipped_records: unknown[];
}

let text: string;
beforeAll(async () => {
  const { db, cleanup } = await openTestDb();
  await seedAuditDb(db);
  const chunks: string[] = [];
  await exportAuditLog(db, {}, (chunk) => void chunks.push(chunk), undefined, { deviceId: 'device-test' });
  text = chunks.join('');
  await cleanup();
});

function edit(change: (file: FileShape) => void): string {
  const file = JSON.parse(text) as FileShape;
  change(file);
  return JSON.stringify(file, null, 2);
}

function failure(result: VerifyResult): Extract<VerifyResult, { ok: false }> {
  if (result.ok) throw new Error('expected the file to fail verification');
  return result;
}

describe('verifyAuditFile', () => {
  it('accepts an export, however it is re-indented, and returns its entries', async () => {
    const result = await verifyAuditFile(JSON.stringify(JSON.parse(text), null, 4));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.entries).toHaveLength(11);
  });

  it('names the entry whose content was changed', async () => {
    const result = failure(await verifyAuditFile(edit((file) => void (file.entries[4]!.resolution = { name: 'Mallory', seats: 2 }))));
    expect(result).toMatchObject({ firstBadIndex: 4, entryId: SCENARIO.form });
    expect(result.reason).toMatch(/Entry 5 \(pp-05-form\) does not match its hash/);
  });

  it('names the entry after a removed one', async () => {
    const result = failure(await verifyAuditFile(edit((file) => void file.entries.splice(2, 1))));
    expect(result).toMatchObject({ firstBadIndex: 2, entryId: SCENARIO.choice });
    expect(result.reason).toMatch(/removed, reordered or altered/);
  });

  it('names the first entry out of order when two are swapped', async () => {
    const result = failure(
      await verifyAuditFile(edit((file) => void ([file.entries[6], file.entries[7]] = [file.entries[7]!, file.entries[6]!]))),
    );
    expect(result).toMatchObject({ firstBadIndex: 6, entryId: SCENARIO.unknown });
  });

  it('catches an entry changed and re-hashed at the entry after it', async () => {
    const forged = edit((file) => {
      const { hash: _hash, ...rest } = file.entries[1]!;
      rest.edited_payload = null;
      // A forger who re-hashes one entry still breaks the link to the next.
      file.entries[1] = { ...rest, hash: '' };
    });
    const file = JSON.parse(forged) as FileShape;
    const { hash: _h, ...body } = file.entries[1]!;
    file.entries[1]!.hash = await sha256Hex(canonicalJson(body));
    const result = failure(await verifyAuditFile(JSON.stringify(file)));
    expect(result).toMatchObject({ firstBadIndex: 2, entryId: SCENARIO.declined });
  });

  it('catches entries removed from the end', async () => {
    expect(failure(await verifyAuditFile(edit((file) => void file.entries.pop()))).reason).toMatch(/says it holds 11 entries but has 10/);
    const recounted = failure(
      await verifyAuditFile(
        edit((file) => {
          file.entries.pop();
          file.entry_count = 10;
        }),
      ),
    );
    expect(recounted.reason).toMatch(/head hash/);
    expect(recounted.firstBadIndex).toBeUndefined();
  });

  it('refuses an entry the chain accepts but the schema does not, naming it', async () => {
    // Only possible for a forger who recomputes the whole chain; the schema still has the last word.
    const file = JSON.parse(text) as FileShape;
    file.entries[0]!.status = 'approved';
    let previous = chainStart(file);
    for (const entry of file.entries) {
      entry.prev_hash = previous;
      const { hash: _hash, ...body } = entry;
      entry.hash = previous = await sha256Hex(canonicalJson(body));
    }
    file.head_hash = chainSeal(previous, file.entry_count, file.skipped_records);
    const result = failure(await verifyAuditFile(JSON.stringify(file)));
    expect(result).toMatchObject({ firstBadIndex: 0, entryId: SCENARIO.approved });
    expect(result.reason).toMatch(/schema at entries\.0\.status/);
  });

  it('refuses what is not JSON, not an audit log, or from a newer version, saying so', async () => {
    expect(failure(await verifyAuditFile('')).reason).toMatch(/not JSON/);
    expect(failure(await verifyAuditFile('[1,2]')).reason).toMatch(/not a Pausepoint audit log/);
    expect(failure(await verifyAuditFile('{"version":1}')).reason).toMatch(/names no format/);
    expect(failure(await verifyAuditFile('{"format":"pausepoint.audit-log","version":"1"}')).reason).toMatch(/no readable format version/);
    expect(failure(await verifyAuditFile('{"format":"pausepoint.audit-log","version":1,"entries":{}}')).reason).toMatch(/no list of entries/);
  });

  it('point 13: the metadata and the skipped records are in the chain — editing filters, exported_at, device_id or skipped_records fails', async () => {
    const edits: [string, (file: FileShape) => void][] = [
      ['filters', (file) => void (file.metadata.filters.tool_name = 'send_email')],
      ['exported_at', (file) => void (file.metadata.exported_at = '2030-01-01T00:00:00.000Z')],
      ['device_id', (file) => void (file.metadata.device_id = 'device-someone-else')],
    ];
    for (const [member, change] of edits) {
      const result = failure(await verifyAuditFile(edit(change)));
      expect({ member, result }).toMatchObject({ member, result: { firstBadIndex: 0, entryId: SCENARIO.approved, reason: expect.stringMatching(/does not follow the file's metadata/) } });
    }
    // A record that was skipped, its mention removed (or one edited in): only the seal knows.
    const skipped = failure(await verifyAuditFile(edit((file) => void (file.skipped_records = [{ id: 'pp-hidden', reason: 'edited in' }]))));
    expect(skipped.reason).toMatch(/skipped records were changed/);
    expect(skipped.firstBadIndex).toBeUndefined();
    // An empty export has no entry to break: its seal covers the metadata too.
    const { db, cleanup } = await openTestDb();
    const chunks: string[] = [];
    await exportAuditLog(db, { toolName: 'no_such_tool' }, (chunk) => void chunks.push(chunk), undefined, { deviceId: 'device-test' });
    await cleanup();
    const empty = JSON.parse(chunks.join('')) as FileShape;
    expect((await verifyAuditFile(JSON.stringify(empty))).ok).toBe(true);
    empty.metadata.filters.tool_name = null;
    expect(failure(await verifyAuditFile(JSON.stringify(empty))).reason).toMatch(/metadata or skipped records were changed/);
  });

  it('reports progress while hashing', async () => {
    const seen: [number, number][] = [];
    await verifyAuditFile(text, { onProgress: (checked, total) => seen.push([checked, total]) });
    expect(seen.at(-1)).toEqual([11, 11]);
  });
});

describe('stored fixtures', () => {
  it('still verifies a version 1 file exported by an earlier build', async () => {
    const result = await verifyAuditFile(fixture('audit-log-v1.json'));
    expect(result).toMatchObject({ ok: true, version: 1 });
    if (result.ok) {
      expect(result.entries).toHaveLength(11);
      expect(result.headHash).toBe(JSON.parse(fixture('audit-log-v1.json')).head_hash);
    }
  });

  it('verifies a version 2 file, with the rule and MCP members of its decisions', async () => {
    const result = await verifyAuditFile(fixture('audit-log-v2.json'));
    expect(result).toMatchObject({ ok: true, version: 2, headHash: JSON.parse(fixture('audit-log-v2.json')).head_hash });
    if (!result.ok || result.version !== 2) return;
    const byId = new Map(result.entries.map((entry) => [entry.id, entry]));
    expect(byId.get(RULE_SCENARIO.ruleAllowed)).toMatchObject({
      entry_type: 'decision', decision_origin: 'rule', origin: 'rule', resolution: 'approve',
      rule: { id: RULE_SCENARIO.allowRule, effect: 'allow', text: 'Allow http_request when method is GET — everywhere' },
      definition_hash: WEATHER_HASH, ledger: { status: 'succeeded' }, payload: { method: 'GET' }, mcp: null,
    });
    expect(byId.get(RULE_SCENARIO.mcpApproved)).toMatchObject({
      decision_origin: 'human', definition_hash: MCP_ENGINE_HASH,
      mcp: { server_url: MCP_SERVER.serverUrl, tool_name: 'echo', definition_hash: MCP_SERVER.definitionHash, server_id: 'srv-1', server_name: 'Example tools' },
    });
    expect(byId.get(SCENARIO.timeout)).toMatchObject({ decision_origin: 'expiry', rule: null, definition_hash: null });
    expect(byId.get(SCENARIO.pending)).toMatchObject({ decision_origin: null });
  });

  it('verifies a version 3 file, whose decisions say how and on which device they were made', async () => {
    const result = await verifyAuditFile(fixture('audit-log-v3.json'));
    expect(result).toMatchObject({ ok: true, version: 3, headHash: JSON.parse(fixture('audit-log-v3.json')).head_hash });
    if (!result.ok || result.version !== 3) return;
    const byId = new Map(result.entries.map((entry) => [entry.id, entry]));
    expect(byId.get(SCENARIO.edited)).toMatchObject({ decided_via: 'sync', decided_by_device: { id: 'device-phone', name: 'Chrome on the phone' }, decided_by: { tab_id: 'tab-9' } });
    expect(byId.get(SCENARIO.approved)).toMatchObject({ decided_via: 'local', decided_by_device: { id: 'device-laptop', name: 'Firefox on the laptop' } });
    expect(byId.get(RULE_SCENARIO.ruleAllowed)).toMatchObject({ decided_via: 'local', decided_by_device: null });
    expect(byId.get(SCENARIO.pending)).toMatchObject({ decided_via: null, decided_by_device: null });
  });

  it('verifies a version 3 file, with its dry run', async () => {
    const result = await verifyAuditFile(fixture('audit-log-v3.json'));
    expect(result).toMatchObject({ ok: true, version: 3, headHash: JSON.parse(fixture('audit-log-v3.json')).head_hash });
    if (!result.ok) return;
    expect(result.entries.find((entry) => entry.id === RULE_SCENARIO.dryRun)).toMatchObject({ entry_type: 'rule_dry_run', would: 'ask', rule: { dry_run: true } });
    expect(failure(await verifyAuditFile(fixture('tampered-entry-v3.json')))).toMatchObject({ entryId: RULE_SCENARIO.ruleDenied });
  });

  it('verifies a version 2 entry carrying a member added after version 2 (entries are open to optional members)', async () => {
    const file = JSON.parse(fixture('audit-log-v2.json')) as FileShape;
    let previous = '0'.repeat(64);
    for (const [index, entry] of file.entries.entries()) {
      if (index === 0) entry.usage = { input_tokens: 12, output_tokens: 3 };
      entry.prev_hash = previous;
      const { hash: _hash, ...body } = entry;
      entry.hash = previous = await sha256Hex(canonicalJson(body));
    }
    file.head_hash = previous;
    expect(await verifyAuditFile(JSON.stringify(file))).toMatchObject({ ok: true, version: 2 });
    // And the member is covered by the hash like any other.
    file.entries[0]!.usage = { input_tokens: 1, output_tokens: 3 };
    expect(failure(await verifyAuditFile(JSON.stringify(file)))).toMatchObject({ firstBadIndex: 0 });
  });

  it('refuses the negative fixtures with the reason a user needs', async () => {
    expect(failure(await verifyAuditFile(fixture('tampered-entry-v1.json')))).toMatchObject({ firstBadIndex: 2, entryId: SCENARIO.declined });
    expect(failure(await verifyAuditFile(fixture('future-version-v5.json'))).reason).toMatch(/version 5, written by a newer Pausepoint; this version reads versions 1 to 4/);
    expect(failure(await verifyAuditFile(fixture('tampered-entry-v2.json')))).toMatchObject({ firstBadIndex: 14, entryId: RULE_SCENARIO.ruleDenied });
    expect(failure(await verifyAuditFile(fixture('tampered-entry-v3.json')))).toMatchObject({ firstBadIndex: 15, entryId: RULE_SCENARIO.ruleDenied });
    expect(failure(await verifyAuditFile(fixture('tampered-metadata-v3.json')))).toMatchObject({ firstBadIndex: 0, reason: expect.stringMatching(/metadata/) });
    expect(failure(await verifyAuditFile(fixture('tampered-skipped-v3.json'))).reason).toMatch(/skipped records were changed/);
    expect(failure(await verifyAuditFile(fixture('foreign-format.json'))).reason).toMatch(/its format is "acme.audit-trail"/);
    expect(failure(await verifyAuditFile(fixture('truncated-download.json'))).reason).toMatch(/not JSON/);
  });
});

describe('version 4: each decision’s device signature', () => {
  type Json = Record<string, unknown>;
  let signedText: string;
  beforeAll(async () => {
    const { db, cleanup } = await openTestDb();
    await seedAuditDb(db);
    await signSeededDecisions(db);
    const chunks: string[] = [];
    await exportAuditLog(db, {}, (chunk) => void chunks.push(chunk), undefined, { deviceId: 'device-test' });
    signedText = chunks.join('');
    await cleanup();
  });
  const decided = (file: Json) => (file.entries as Json[]).filter((e) => e.entry_type === 'decision' && e.status !== 'pending');

  it('verifies every signature of a fresh export against the one listed device', async () => {
    const result = await verifyAuditFile(signedText);
    expect(result).toMatchObject({ ok: true, version: 4, signatures: { failed: [], unlisted: [], unsigned: [] } });
    if (result.ok && result.version === 4) expect(result.signatures.verified).toBe(decided(JSON.parse(signedText) as Json).length);
  });

  it('names every decision whose signature was swapped, even with the chain computed again', async () => {
    const file = JSON.parse(signedText) as Json;
    const [a, b] = [SCENARIO.approved, SCENARIO.declined].map((id) => (file.entries as Json[]).find((e) => e.id === id)!);
    [a!.device_signature, b!.device_signature] = [b!.device_signature, a!.device_signature];
    const result = failure(await verifyAuditFile(JSON.stringify(rechain(file))));
    expect(result).toMatchObject({ entryId: SCENARIO.approved, reason: expect.stringMatching(/signs another decision.*1 more decision fails too/) });
    expect(result.failedSignatures?.map((f) => f.id)).toEqual([SCENARIO.approved, SCENARIO.declined]);
  });

  it('fails a decision edited with its signed object, the chain computed again: only the key could sign it', async () => {
    const result = failure(await verifyAuditFile(fixture('resigned-entry-v4.json')));
    expect(result).toMatchObject({ firstBadIndex: 15, entryId: RULE_SCENARIO.ruleDenied, reason: expect.stringMatching(/does not verify against the key of This device/) });
  });

  it('fails a file whose devices were edited at its first entry, and counts a listed device whose key_id is not its key’s as not listed', async () => {
    expect(failure(await verifyAuditFile(fixture('tampered-devices-v4.json')))).toMatchObject({ firstBadIndex: 0, reason: expect.stringMatching(/or the devices/) });
    const file = JSON.parse(signedText) as Json;
    const other = await newDeviceIdentity();
    (file.devices as Json[])[0]!.public_key = other.publicKey;
    const result = await verifyAuditFile(JSON.stringify(rechain(file)));
    expect(result).toMatchObject({ ok: true, signatures: { verified: 0, failed: [] } });
    if (result.ok && result.version === 4) expect(result.signatures.unlisted).toHaveLength(decided(file).length);
  });

  it('verifies the version 4 fixture: the phone’s decisions are signed by a key the file does not list yet (no membership log)', async () => {
    const result = await verifyAuditFile(fixture('audit-log-v4.json'));
    expect(result).toMatchObject({ ok: true, version: 4, signatures: { failed: [], unsigned: [] } });
    if (!result.ok || result.version !== 4) return;
    const phone = result.entries.filter((e) => e.entry_type === 'decision' && e.decided_by?.device_id === OTHER_DEVICE.deviceId).map((e) => e.id);
    expect(result.signatures.unlisted.map((u) => u.id)).toEqual(phone);
    expect(result.signatures.verified).toBeGreaterThan(0);
  });

  it('reports the decisions an export carries without a signature (made before decisions were signed)', async () => {
    const result = await verifyAuditFile(text);
    expect(result).toMatchObject({ ok: true, version: 4, signatures: { verified: 0, failed: [] } });
    if (result.ok && result.version === 4) expect(result.signatures.unsigned).toContain(SCENARIO.approved);
  });
});

describe('version 4 with the membership log: the devices it vouches for', () => {
  type Json = Record<string, unknown>;
  let logText: string;
  let phoneKeyId: string;
  beforeAll(async () => {
    const { db, cleanup } = await openTestDb();
    await seedAuditDb(db);
    // The laptop (this device) founds the log and the phone joins it, as pairing writes them.
    const keys = await deriveSyncKeys(newDataKey());
    const laptop = { deviceId: 'device-laptop', identity: await deviceIdentity(db), agreementKey: (await newAgreementKeys()).publicKey };
    const phone = { deviceId: OTHER_DEVICE.deviceId, identity: await newDeviceIdentity(), agreementKey: (await newAgreementKeys()).publicKey };
    phoneKeyId = phone.identity.keyId;
    const found = await joinEntry(laptop, EMPTY_MEMBERSHIP, keys, 1, 1);
    const added = await joinEntry(phone, fold(EMPTY_MEMBERSHIP, found), keys, 1, 2, laptop.deviceId);
    await appendStoredLog(db, 'db', [found, added]);
    await signSeededDecisions(db, { [OTHER_DEVICE.deviceId]: phone.identity });
    const chunks: string[] = [];
    await exportAuditLog(db, {}, (chunk) => void chunks.push(chunk), undefined, { deviceId: 'device-test' });
    logText = chunks.join('');
    await cleanup();
  });

  it('lists every member the log names with its pinned key, and verifies the phone’s decisions too', async () => {
    const file = JSON.parse(logText) as Json;
    expect((file.membership as Json[]).map((e) => e.op)).toEqual(['found', 'add']);
    expect((file.devices as Json[]).map((d) => d.key_id)).toContain(phoneKeyId);
    const result = await verifyAuditFile(logText);
    expect(result).toMatchObject({ ok: true, version: 4, signatures: { failed: [], unlisted: [], unsigned: [] } });
  });

  it('fails a file whose log no longer names a listed device, or whose log entry was re-keyed, even with the chain computed again', async () => {
    const cut = JSON.parse(logText) as Json;
    cut.membership = (cut.membership as Json[]).slice(0, 1);
    expect(failure(await verifyAuditFile(JSON.stringify(rechain(cut)))).reason).toMatch(/not vouched for: it lists .* whom its membership log does not name/);
    const rekeyed = JSON.parse(logText) as Json;
    const add = (rekeyed.membership as Json[])[1]! as { subject: { signingKey: unknown } };
    add.subject.signingKey = (await newDeviceIdentity()).publicKey;
    expect(failure(await verifyAuditFile(JSON.stringify(rechain(rekeyed)))).reason).toMatch(/membership log's entry 2 does not hold \(bad signature\)/);
    // And the log is in the chain: edited without computing the chain again, the first entry no longer follows the head.
    expect(failure(await verifyAuditFile(JSON.stringify({ ...JSON.parse(logText), membership: cut.membership })))).toMatchObject({ firstBadIndex: 0 });
  });
});
