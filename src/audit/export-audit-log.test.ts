import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../engine/records/message.ts';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { deviceId } from '../storage/settings-repo.ts';
import { APP_VERSION } from '../common/app-version.ts';
import { AuditLogFile, type AuditEntry, type DecisionEntry } from './audit-entry.ts';
import { exportAuditLog, type ExportProgress } from './export-audit-log.ts';
import { chainSeal, chainStart } from './hash-chain.ts';
import { checkJsonSchema } from './testing/json-schema-check.ts';
import { CANARY_API_KEY, ConversationBuilder, DEVICE, MINUTE, OTHER_DEVICE, SCENARIO, seedAuditDb, T0, type Builder } from './testing/seed-audit-db.ts';
import { dryRunEvent, MCP_ENGINE_HASH, MCP_SERVER, RULE_SCENARIO, seedRuleAndMcpRecords, WEATHER_HASH } from './testing/seed-rule-and-mcp-records.ts';
import { verifyAuditFile } from './verify-audit-file.ts';
import { signObject } from '../identity/device-signature.ts';
import { deviceIdentity } from '../identity/identity-store.ts';
import { keyIdOf } from '../identity/signing-key-jwk.ts';

const schema: unknown = JSON.parse(readFileSync(new URL('../../docs/audit-log.schema.json', import.meta.url), 'utf8'));
const EXPORTED_AT = Date.UTC(2025, 5, 1, 12, 0, 0);

let db: PausepointDb;

useTestDb((fresh) => (db = fresh));
beforeEach(async () => {
  await seedAuditDb(db);
});

async function exportText(filters = {}, pageSize = 3): Promise<{ text: string; chunks: string[]; progress: ExportProgress[] }> {
  const chunks: string[] = [];
  const progress: ExportProgress[] = [];
  await exportAuditLog(db, filters, (chunk) => void chunks.push(chunk), (p) => progress.push(p), { pageSize, now: () => EXPORTED_AT });
  return { text: chunks.join(''), chunks, progress };
}

function byId(entries: AuditEntry[]): Map<string, DecisionEntry> {
  return new Map(entries.flatMap((entry) => (entry.entry_type === 'decision' ? [[entry.id, entry] as const] : [])));
}

describe('exportAuditLog', () => {
  it('writes a file that matches the committed JSON Schema and the zod schema, and verifies', async () => {
    const { text } = await exportText();
    const file: unknown = JSON.parse(text);
    expect(checkJsonSchema(schema, file)).toEqual([]);
    const parsed = AuditLogFile.parse(file);
    expect(parsed.entry_count).toBe(11);
    expect(parsed.skipped_records).toEqual([]);
    expect(parsed.metadata).toEqual({
      app_version: APP_VERSION,
      exported_at: '2025-06-01T12:00:00.000Z',
      device_id: await deviceId(db),
      filters: { status: null, kind: null, tool_name: null, conversation_id: null, created_from: null, created_to: null, text: null },
    });
    const verified = await verifyAuditFile(text);
    expect(verified.ok).toBe(true);
    if (verified.ok) expect(verified.headHash).toBe(parsed.head_hash);
  });

  it('point 13: each decision says how it came (decided_via: local or sync) and which device made it (decided_by_device)', async () => {
    const edited = await db.pausePoints.get(SCENARIO.edited);
    await db.pausePoints.put({ ...edited!, decidedBy: { ...OTHER_DEVICE, via: 'sync' } });
    const { text } = await exportText();
    expect(checkJsonSchema(schema, JSON.parse(text))).toEqual([]);
    const entries = byId(AuditLogFile.parse(JSON.parse(text)).entries);
    expect(entries.get(SCENARIO.edited)).toMatchObject({
      decided_via: 'sync',
      decided_by_device: { id: OTHER_DEVICE.deviceId, name: OTHER_DEVICE.label },
      // Unchanged beside them.
      decided_by: { tab_id: OTHER_DEVICE.tabId, device_id: OTHER_DEVICE.deviceId, label: OTHER_DEVICE.label },
    });
    expect(entries.get(SCENARIO.approved)).toMatchObject({ decided_via: 'local', decided_by_device: { id: DEVICE.deviceId, name: DEVICE.label } });
    // Decided with no device on record (an expiry), and still pending.
    expect(entries.get(SCENARIO.abandoned)).toMatchObject({ decided_via: 'local', decided_by_device: null });
    expect(entries.get(SCENARIO.pending)).toMatchObject({ decided_via: null, decided_by_device: null });
    expect((await verifyAuditFile(text)).ok).toBe(true);
  });

  it('carries the usage of the model call that proposed a guarded tool call, when the endpoint reported it', async () => {
    const all = await db.messages.toArray();
    const proposer = all.find((m) => m.role === 'assistant' && m.toolCalls.some((c) => c.id === 'call-send-1'));
    expect(proposer?.role).toBe('assistant');
    await db.messages.put({ ...proposer!, usage: { model: 'gpt-4o-mini', prompt: 1200, completion: 40, cached: 1024, reasoning: 8 } } as Message);
    const { text } = await exportText();
    const file: unknown = JSON.parse(text);
    expect(checkJsonSchema(schema, file)).toEqual([]);
    const entries = byId(AuditLogFile.parse(file).entries);
    expect(entries.get(SCENARIO.approved)?.tool_call?.usage).toEqual({ model: 'gpt-4o-mini', prompt_tokens: 1200, completion_tokens: 40, cached_tokens: 1024, reasoning_tokens: 8 });
    expect(entries.get(SCENARIO.declined)?.tool_call).not.toHaveProperty('usage');
    expect((await verifyAuditFile(text)).ok).toBe(true);
  });

  it('names the files attached before a call, in the version it was made in, by name, type, size and hash: never their bytes', async () => {
    const all = await db.messages.toArray();
    const proposer = all.find((m) => m.role === 'assistant' && m.toolCalls.some((c) => c.id === 'call-send-1'))!;
    const asked = all.filter((m) => m.conversationId === proposer.conversationId && m.role === 'user' && !m.decision && m.seq < proposer.seq).at(-1);
    expect(asked?.role).toBe('user');
    const sha256 = 'ab'.repeat(32);
    const ref = { id: 'file-1', name: 'invoice.png', type: 'image/png', size: 2048, sha256, kind: 'image' as const };
    await db.messages.put({ ...asked!, attachments: [ref] } as Message);
    const exported = async () => {
      const { text } = await exportText();
      const file: unknown = JSON.parse(text);
      expect(checkJsonSchema(schema, file)).toEqual([]);
      expect((await verifyAuditFile(text)).ok).toBe(true);
      return byId(AuditLogFile.parse(file).entries);
    };
    const entries = await exported();
    expect(entries.get(SCENARIO.approved)?.attachments).toEqual([{ message_id: asked!.id, name: 'invoice.png', sha256, size: 2048, type: 'image/png' }]);
    // A conversation without files says nothing: the member is left out (earlier version 3 files stay valid).
    const other = [...entries.values()].find((e) => e.conversation_id !== proposer.conversationId);
    expect(other).not.toHaveProperty('attachments');

    // Filed on another version than the call's: the model that made the call never saw it.
    const conversation = (await db.conversations.get(proposer.conversationId))!;
    const branch = { id: 'v2', parent: '', from: asked!.seq, active: 1, createdAt: T0 };
    await db.conversations.put({ ...conversation, versions: { current: '', rootActive: 2, branches: [branch] } });
    await db.messages.put({ ...asked!, branch: 'v2', attachments: [ref] } as Message);
    expect((await exported()).get(SCENARIO.approved)).not.toHaveProperty('attachments');
  });

  it('carries a card\'s risk label and the batch it was decided in, when the record has them', async () => {
    const approved = await db.pausePoints.get(SCENARIO.approved);
    const declined = await db.pausePoints.get(SCENARIO.declined);
    await db.pausePoints.bulkPut([
      { ...approved!, risk: 'changes', batchId: 'batch-1' },
      { ...declined!, risk: 'destructive', batchId: 'batch-1' },
    ]);
    const { text } = await exportText();
    const file: unknown = JSON.parse(text);
    expect(checkJsonSchema(schema, file)).toEqual([]);
    const entries = byId(AuditLogFile.parse(file).entries);
    expect(entries.get(SCENARIO.approved)).toMatchObject({ risk: 'changes', batch_id: 'batch-1' });
    expect(entries.get(SCENARIO.declined)).toMatchObject({ risk: 'destructive', batch_id: 'batch-1' });
    // A record without them: the members are left out, not null (earlier version 3 files stay valid).
    expect(entries.get(SCENARIO.pending)).not.toHaveProperty('risk');
    expect(entries.get(SCENARIO.pending)).not.toHaveProperty('batch_id');
    expect((await verifyAuditFile(text)).ok).toBe(true);
  });

  it('version 4: lists this device with its public signing key, and carries each decision’s signature as stored', async () => {
    const identity = await deviceIdentity(db);
    const approved = await db.pausePoints.get(SCENARIO.approved);
    const signature = await signObject(identity, { card_id: SCENARIO.approved, status: 'resolved', resolution: 'approve' });
    await db.pausePoints.put({ ...approved!, deviceSignature: signature });
    const file = AuditLogFile.parse(JSON.parse((await exportText()).text));
    expect(file.devices).toEqual([{ key_id: identity.keyId, name: 'This device', public_key: identity.publicKey }]);
    expect(keyIdOf(file.devices[0]!.public_key)).toBe(file.devices[0]!.key_id);
    const entries = byId(file.entries);
    expect(entries.get(SCENARIO.approved)?.device_signature).toEqual(signature);
    // A pending card has decided nothing: it carries no signature, whatever its record holds.
    expect(entries.get(SCENARIO.pending)).not.toHaveProperty('device_signature');
  });

  it('orders entries oldest first, breaks ties by id, and chains them from the metadata and the devices to the seal', async () => {
    const { format, version, metadata, devices, entries, head_hash, entry_count, skipped_records } = AuditLogFile.parse(JSON.parse((await exportText()).text));
    expect(entries.map((entry) => entry.id)).toEqual([
      SCENARIO.approved, SCENARIO.edited, SCENARIO.declined, SCENARIO.choice, SCENARIO.form, SCENARIO.timeout,
      SCENARIO.abandoned, SCENARIO.unknown, SCENARIO.sameTurnA, SCENARIO.sameTurnB, SCENARIO.pending,
    ]);
    expect(entries[0]?.prev_hash).toBe(chainStart({ format, version, metadata, devices }));
    entries.slice(1).forEach((entry, index) => expect(entry.prev_hash).toBe(entries[index]?.hash));
    expect(head_hash).toBe(chainSeal(entries.at(-1)!.hash, entry_count, skipped_records));
  });

  it('writes version 4: a call a dry-run rule would have decided, with the rule (marked a dry run), the call and what it would have done', async () => {
    await seedRuleAndMcpRecords(db);
    await db.auditEvents.put(dryRunEvent());
    const { text } = await exportText({}, 2);
    const file = AuditLogFile.parse(JSON.parse(text));
    expect(file.version).toBe(4);
    expect(file.entries.find((entry) => entry.id === RULE_SCENARIO.dryRun)).toMatchObject({
      entry_type: 'rule_dry_run', at: new Date(T0 + 401 * 60_000).toISOString(), would: 'ask', conversation_id: 'conv-rules', tool_call_id: 'call-weather',
      tool_name: 'http_request', arguments: { method: 'GET', url: 'https://api.weather.example/v1/lyon' },
      rule: { id: 'rule-dry-ask-weather', effect: 'ask', dry_run: true, text: 'Ask before http_request — everywhere' },
    });
    expect(file.entries.find((entry) => entry.id === RULE_SCENARIO.allowCreated)).toMatchObject({ rule: { dry_run: false } });
    expect(checkJsonSchema(schema, JSON.parse(text))).toEqual([]);
    expect(await verifyAuditFile(text)).toMatchObject({ ok: true, version: 4 });
    // Filtered by the call's tool and conversation, as a decision is.
    const byTool = AuditLogFile.parse(JSON.parse((await exportText({ toolName: 'http_request', conversationId: 'conv-rules' })).text));
    expect(byTool.entries.map((entry) => entry.id)).toContain(RULE_SCENARIO.dryRun);
  });

  it('writes version 4: who decided, the rule behind an automatic decision, the definition hash and the MCP server', async () => {
    await seedRuleAndMcpRecords(db);
    const { text } = await exportText();
    const file = AuditLogFile.parse(JSON.parse(text));
    expect(file.version).toBe(4);
    const entries = byId(file.entries);
    expect(entries.get(RULE_SCENARIO.ruleAllowed)).toMatchObject({
      entry_type: 'decision', origin: 'rule', decision_origin: 'rule', decided_by: null, resolution: 'approve',
      rule: { id: RULE_SCENARIO.allowRule, effect: 'allow', text: 'Allow http_request when method is GET — everywhere' },
      payload: { method: 'GET', url: 'https://api.weather.example/v1/lyon' }, definition_hash: WEATHER_HASH,
      ledger: { status: 'succeeded', args: { method: 'GET', url: 'https://api.weather.example/v1/lyon' } }, mcp: null, restored: false,
    });
    expect(entries.get(RULE_SCENARIO.ruleDenied)).toMatchObject({ decision_origin: 'rule', resolution: 'decline', reason: 'Notes are kept', rule: { effect: 'deny' }, ledger: null });
    expect(entries.get(RULE_SCENARIO.mcpApproved)).toMatchObject({
      decision_origin: 'human', decided_by: { tab_id: DEVICE.tabId }, definition_hash: MCP_ENGINE_HASH,
      mcp: { server_id: MCP_SERVER.serverId, server_url: MCP_SERVER.serverUrl, server_name: MCP_SERVER.serverName, tool_name: 'echo', definition_hash: MCP_SERVER.definitionHash },
    });
    expect(entries.get(SCENARIO.approved)).toMatchObject({ decision_origin: 'human', rule: null, definition_hash: null, mcp: null });
    expect(entries.get(SCENARIO.abandoned)).toMatchObject({ decision_origin: 'expiry' });
    expect(entries.get(SCENARIO.pending)).toMatchObject({ decision_origin: null });
    expect(checkJsonSchema(schema, JSON.parse(text))).toEqual([]);
    expect(await verifyAuditFile(text)).toMatchObject({ ok: true, version: 4 });
    // A rule's decision changed after export is caught at that entry.
    const tampered = text.replace(/("id":"pp-12-rule-allowed".*?)"resolution":"approve"/, '$1"resolution":"decline"');
    expect(tampered).not.toBe(text);
    expect(await verifyAuditFile(tampered)).toMatchObject({ ok: false, entryId: RULE_SCENARIO.ruleAllowed });
  });

  it('chains rule changes and changed MCP tools among the decisions, in time order', async () => {
    await seedRuleAndMcpRecords(db);
    const { text } = await exportText({}, 2);
    const file = AuditLogFile.parse(JSON.parse(text));
    expect(file.entries.slice(11).map((entry) => [entry.entry_type, entry.id])).toEqual([
      ['rule_created', RULE_SCENARIO.allowCreated],
      ['decision', RULE_SCENARIO.ruleAllowed],
      ['rule_created', RULE_SCENARIO.denyCreated],
      ['decision', RULE_SCENARIO.ruleDenied],
      ['tool_definition_changed', RULE_SCENARIO.echoChanged],
      ['decision', RULE_SCENARIO.mcpApproved],
      ['rule_removed', RULE_SCENARIO.allowRemoved],
    ]);
    const created = file.entries[11]!;
    expect(created).toMatchObject({
      at: new Date(T0 + 399 * 60_000).toISOString(), decided_by: { tab_id: DEVICE.tabId, device_id: DEVICE.deviceId, label: DEVICE.label },
      rule: {
        id: RULE_SCENARIO.allowRule, effect: 'allow', text: 'Allow http_request when method is GET — everywhere', tool: 'http_request', scope: 'everywhere',
        conversation_id: null, source: 'card', enabled: true, definition_hash: WEATHER_HASH, expires_at: null, reason: null,
      },
    });
    expect(file.entries.find((entry) => entry.id === RULE_SCENARIO.denyCreated)).toMatchObject({ rule: { scope: 'conversation', conversation_id: 'conv-rules', reason: 'Notes are kept' } });
    expect(file.entries.find((entry) => entry.id === RULE_SCENARIO.echoChanged)).toMatchObject({
      mcp: { server_url: MCP_SERVER.serverUrl, tool_name: 'echo', definition_hash: MCP_SERVER.definitionHash },
      previous_definition_hash: 'e'.repeat(64), pinned_definition_hash: 'e'.repeat(64), changes: expect.arrayContaining(['Description is now:']),
    });
    expect(checkJsonSchema(schema, JSON.parse(text))).toEqual([]);
    expect(await verifyAuditFile(text)).toMatchObject({ ok: true, version: 4 });
    // The chain does not depend on how the export was paged.
    expect(AuditLogFile.parse(JSON.parse((await exportText({}, 250)).text)).head_hash).toBe(file.head_hash);
  });

  it('filters events as it filters decisions: by tool, conversation, date and text; status and kind leave them out', async () => {
    await seedRuleAndMcpRecords(db);
    const ids = async (filters: object) => AuditLogFile.parse(JSON.parse((await exportText(filters)).text)).entries.map((entry) => entry.id);
    expect(await ids({ toolName: 'http_request' })).toEqual([RULE_SCENARIO.allowCreated, RULE_SCENARIO.ruleAllowed, RULE_SCENARIO.allowRemoved]);
    expect(await ids({ conversationId: 'conv-rules' })).toEqual([RULE_SCENARIO.ruleAllowed, RULE_SCENARIO.denyCreated, RULE_SCENARIO.ruleDenied, RULE_SCENARIO.mcpApproved]);
    expect(await ids({ text: 'mails it' })).toEqual([RULE_SCENARIO.echoChanged]);
    expect(await ids({ from: T0 + 425 * 60_000 })).toEqual([RULE_SCENARIO.allowRemoved]);
    expect(await ids({ status: 'resolved', from: T0 + 395 * 60_000 })).toEqual([RULE_SCENARIO.ruleAllowed, RULE_SCENARIO.ruleDenied, RULE_SCENARIO.mcpApproved]);
  });

  it('lists an audit event it cannot read as skipped, and chains the rest', async () => {
    await seedRuleAndMcpRecords(db);
    await db.auditEvents.put({ v: 1, id: 'ev-broken', at: T0 + 500 * 60_000, kind: 'rule_created' } as never);
    const { text } = await exportText();
    const file = AuditLogFile.parse(JSON.parse(text));
    expect(file.skipped_records).toEqual([{ id: 'ev-broken', reason: expect.stringContaining('rule') }]);
    expect(file.entries).toHaveLength(18);
    expect((await verifyAuditFile(text)).ok).toBe(true);
  });

  it('joins each pause point with its tool call, decision message, tool results and ledger outcome', async () => {
    const entries = byId(AuditLogFile.parse(JSON.parse((await exportText()).text)).entries);

    const approved = entries.get(SCENARIO.approved)!;
    expect(approved).toMatchObject({
      conversation_id: 'conv-mail', conversation_title: 'Spring newsletter', turn_index: 0, kind: 'approval', status: 'resolved',
      resolution: 'approve', edited_payload: null, reason: null, origin: 'gate', tool_name: 'send_email', tool_call_id: 'call-send-1',
      created_at: new Date(T0 + 60_000).toISOString(), resolved_at: new Date(T0 + 3 * 60_000).toISOString(),
      decided_by: { tab_id: DEVICE.tabId, device_id: DEVICE.deviceId, label: DEVICE.label },
      payload: { list: 'customers', recipients: 1200, subject: 'Spring news' },
    });
    expect(approved.tool_call).toMatchObject({ id: 'call-send-1', name: 'send_email', turn_index: 0 });
    expect(JSON.parse(approved.tool_call!.arguments)).toEqual(approved.payload);
    expect(approved.decision_message?.content).toBe('Approval approval: approve');
    expect(approved.tool_results).toEqual([expect.objectContaining({ content: 'Sent 1,200 emails.', outcome: 'done' })]);
    expect(approved.ledger).toMatchObject({ status: 'succeeded', attempts: 1, finished_at: new Date(T0 + 4 * 60_000).toISOString() });

    const edited = entries.get(SCENARIO.edited)!;
    expect(edited.payload).toMatchObject({ recipients: 1200, cc: 'boss@example.com' });
    expect(edited.edited_payload).toEqual({ list: 'customers', recipients: 300, subject: 'Spring news (EU)' });
    expect(edited.ledger).toMatchObject({ status: 'succeeded', attempts: 2, args: edited.edited_payload });
    expect(edited.decided_by?.label).toBe(OTHER_DEVICE.label);

    const declined = entries.get(SCENARIO.declined)!;
    expect(declined).toMatchObject({ resolution: 'decline', reason: 'We still need it for the autumn campaign', ledger: null });
    expect(declined.decision_message?.content).toBe('Approval approval: decline - We still need it for the autumn campaign');
    expect(declined.tool_results.map((result) => result.outcome)).toEqual(['declined']);

    const choice = entries.get(SCENARIO.choice)!;
    expect(choice).toMatchObject({ kind: 'choice', options: ['Train', 'Flight'], resolution: 'Train', reason: 'Lower emissions', origin: 'model' });
    expect(choice.tool_results.map((result) => result.outcome)).toEqual(['awaiting_approval']);

    const form = entries.get(SCENARIO.form)!;
    expect(form).toMatchObject({ kind: 'data_entry', resolution: { name: 'Ada Lovelace', seats: 2 } });
    expect(form.payload).toMatchObject({ type: 'object', required: ['name'] });

    expect(entries.get(SCENARIO.timeout)).toMatchObject({
      status: 'expired', expired_reason: 'timeout', expires_at: new Date(T0 + 110 * 60_000).toISOString(), resolution: null,
      resolved_at: new Date(T0 + 111 * 60_000).toISOString(), decided_by: null,
      decision_message: { content: 'Approval approval: expired - no decision was made before it expired' },
    });
    const abandoned = entries.get(SCENARIO.abandoned)!;
    expect(abandoned).toMatchObject({ status: 'expired', expired_reason: 'abandoned', expires_at: null, decided_by: null });
    expect(abandoned.decision_message?.content).toMatch(/expired - the user sent a new message/);
    // The model's malformed arguments are kept exactly as proposed.
    expect(abandoned.tool_call?.arguments).toBe('{"title":"Book the hotel"');

    expect(entries.get(SCENARIO.unknown)).toMatchObject({
      origin: 'unknown_outcome', kind: 'choice', resolution: 'Skip', reason: 'Do not run it again',
      ledger: { status: 'unknown', attempts: 1, finished_at: null },
    });
    expect(entries.get(SCENARIO.unknown)?.tool_results.map((result) => result.outcome)).toEqual(['skipped']);
    expect(entries.get(SCENARIO.sameTurnA)?.ledger?.status).toBe('succeeded');
    expect(entries.get(SCENARIO.sameTurnB)).toMatchObject({ turn_index: entries.get(SCENARIO.sameTurnA)?.turn_index, ledger: { status: 'failed', attempts: 3 } });
    expect(entries.get(SCENARIO.sameTurnB)?.decision_message?.id).not.toBe(entries.get(SCENARIO.sameTurnA)?.decision_message?.id);
    expect(entries.get(SCENARIO.pending)).toMatchObject({ status: 'pending', resolution: null, resolved_at: null, decision_message: null });
  });

  it('exports a rule’s automatic decision as an entry of origin rule, joined like a human one', async () => {
    const approved = (await db.pausePoints.get(SCENARIO.approved))!;
    await db.pausePoints.put({
      ...approved,
      id: 'pp-by-rule',
      title: 'Allowed by rule: Allow send_email — everywhere',
      origin: 'rule',
      decidedBy: undefined,
      rule: { id: 'rule-1', effect: 'allow', text: 'Allow send_email — everywhere' },
      definitionHash: 'f'.repeat(64),
    });
    const { text } = await exportText();
    const file: unknown = JSON.parse(text);
    expect(checkJsonSchema(schema, file)).toEqual([]);
    const entry = byId(AuditLogFile.parse(file).entries).get('pp-by-rule');
    expect(entry).toMatchObject({ origin: 'rule', resolution: 'approve', decided_by: null, decision_message: null, ledger: { status: 'succeeded' }, title: 'Allowed by rule: Allow send_email — everywhere' });
    expect((await verifyAuditFile(text)).ok).toBe(true);
  });

  it('never writes the API key or anything else from settings but the device id', async () => {
    const { text } = await exportText();
    expect(text).not.toContain(CANARY_API_KEY);
    expect(text).not.toContain('AUDIT-CANARY');
    expect(text).not.toContain('api.openai.com');
  });

  it('streams: one chunk per page, progress after each, never the whole file at once', async () => {
    const { text, chunks, progress } = await exportText({}, 2);
    // Header, six pages of up to two entries, trailer.
    expect(chunks.length).toBe(8);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(text.length / 3);
    expect(progress.map((p) => p.entries)).toEqual([2, 4, 6, 8, 10, 11]);
    expect(progress.at(-1)).toEqual({ processed: 11, total: 11, entries: 11 });
  });

  it('writes into a WritableStream and closes it', async () => {
    const chunks: string[] = [];
    let closed = false;
    const stream = new WritableStream<string>({ write: (chunk) => void chunks.push(chunk), close: () => void (closed = true) });
    const result = await exportAuditLog(db, {}, stream, undefined, { pageSize: 4 });
    expect(closed).toBe(true);
    expect(result.entryCount).toBe(11);
    expect(result.characters).toBe(chunks.join('').length);
    expect((await verifyAuditFile(chunks.join(''))).ok).toBe(true);
  });

  it('applies filters, records them in the metadata, and the filtered file still verifies', async () => {
    const from = T0 + 30 * 60_000;
    const to = T0 + 250 * 60_000;
    const { text } = await exportText({ status: 'resolved', from, to });
    const file = AuditLogFile.parse(JSON.parse(text));
    expect(file.entries.map((entry) => entry.id)).toEqual([SCENARIO.choice, SCENARIO.form, SCENARIO.unknown, SCENARIO.sameTurnA, SCENARIO.sameTurnB]);
    expect(file.metadata.filters).toMatchObject({ status: 'resolved', created_from: new Date(from).toISOString(), created_to: new Date(to).toISOString() });
    expect((await verifyAuditFile(text)).ok).toBe(true);

    const search = AuditLogFile.parse(JSON.parse((await exportText({ text: 'AUTUMN' })).text));
    expect(search.entries.map((entry) => entry.id)).toEqual([SCENARIO.declined]);
    const byTool = AuditLogFile.parse(JSON.parse((await exportText({ toolName: 'restart', kind: 'approval', conversationId: 'conv-ops' })).text));
    expect(byTool.entries.map((entry) => entry.id)).toEqual([SCENARIO.sameTurnA, SCENARIO.sameTurnB]);
  });

  it('writes a valid, verifiable file with no entries', async () => {
    const { text } = await exportText({ toolName: 'no_such_tool' });
    const file: unknown = JSON.parse(text);
    expect(checkJsonSchema(schema, file)).toEqual([]);
    const parsed = AuditLogFile.parse(file);
    expect(parsed).toMatchObject({ entries: [], entry_count: 0, head_hash: chainSeal(chainStart(parsed), 0, []) });
    expect((await verifyAuditFile(text)).ok).toBe(true);
  });

  it('lists unreadable stored records instead of failing or silently dropping them', async () => {
    await db.pausePoints.put({ v: 1, id: 'pp-broken', createdAt: T0 + 5 * 60_000, status: 'resolved' } as never);
    await db.pausePoints.put({ ...(await db.pausePoints.get(SCENARIO.pending))!, id: 'pp-bigint', createdAt: T0 + 6 * 60_000, payload: { n: 1n } });
    const { text } = await exportText();
    const file = AuditLogFile.parse(JSON.parse(text));
    expect(file.entry_count).toBe(11);
    expect(file.skipped_records.map((record) => record.id).sort()).toEqual(['pp-bigint', 'pp-broken']);
    expect((await verifyAuditFile(text)).ok).toBe(true);
  });

  it('picks up a decision made after its conversation was first read', async () => {
    // Page size 1: the ops conversation is read (and cached) for the unknown-outcome entry;
    // while that page is written, the pending card three pages later is decided.
    const chunks: string[] = [];
    let decided = false;
    await exportAuditLog(
      db,
      {},
      async (chunk) => {
        chunks.push(chunk);
        if (!decided && chunk.includes(SCENARIO.unknown)) {
          decided = true;
          await db.pausePoints.update(SCENARIO.pending, { status: 'resolved', resolution: 'approve', resolvedAt: T0 + 301 * 60_000, decidedBy: DEVICE });
          const late: Message = { v: 1, id: 'late-decision', conversationId: 'conv-ops', seq: 99, createdAt: T0, role: 'user', content: 'Approval approval: approve', decision: { pausePointId: SCENARIO.pending } };
          await db.messages.put(late);
        }
      },
      undefined,
      { pageSize: 1, deviceId: null },
    );
    const entries = byId(AuditLogFile.parse(JSON.parse(chunks.join(''))).entries);
    expect(entries.get(SCENARIO.pending)).toMatchObject({ status: 'resolved', decision_message: { id: 'late-decision' } });
  });

  it('reads a conversation’s ledger once, and again when a later pause point implies it moved on: each entry says what was stored when its page was read', async () => {
    // conv-run: a call approved while it runs (ledger `started`), then a question the
    // tool asks while running, then a second call approved by a rule, not yet in the ledger.
    const out: Builder = { conversations: [], messages: [], pausePoints: [], ledger: [] };
    const at = (minutes: number) => T0 + minutes * MINUTE;
    const run = new ConversationBuilder(out, 'conv-run', 'Long job', at(400));
    const other = new ConversationBuilder(out, 'conv-other', 'Elsewhere', at(400));
    const args = { job: 'reindex' };
    const turn = run.calls(at(400), [{ id: 'call-run', name: 'reindex', arguments: JSON.stringify(args) }, { id: 'call-late', name: 'reindex', arguments: JSON.stringify(args) }]);
    const base = { turnIndex: turn, title: 'Reindex?', description: 'Reindexes.', options: null, payload: args, kind: 'approval' as const, toolName: 'reindex' };
    run.pause({ ...base, id: 'pp-run-1', status: 'resolved', resolution: 'approve', resolvedAt: at(400), createdAt: at(400), origin: 'gate', toolCallId: 'call-run', decidedBy: DEVICE });
    run.user('Approval approval: approve', at(400), 'pp-run-1');
    run.ledger('call-run', 'reindex', args, 'started', at(400), null);
    run.pause({ ...base, id: 'pp-run-2', status: 'pending', resolution: null, resolvedAt: null, createdAt: at(402), origin: 'elicitation', toolCallId: 'call-run' });
    const rule = { id: 'rule-1', effect: 'allow' as const, text: 'Allow reindex — everywhere' };
    run.pause({ ...base, id: 'pp-run-3', status: 'resolved', resolution: 'approve', resolvedAt: at(403), createdAt: at(403), origin: 'rule', toolCallId: 'call-late', rule });
    const otherTurn = other.calls(at(401), [{ id: 'call-other', name: 'reindex', arguments: JSON.stringify(args) }]);
    other.pause({ ...base, turnIndex: otherTurn, id: 'pp-other', status: 'resolved', resolution: 'approve', resolvedAt: at(401), createdAt: at(401), origin: 'rule', toolCallId: 'call-other', rule });
    await db.conversations.bulkPut(out.conversations);
    await db.messages.bulkPut(out.messages);
    await db.pausePoints.bulkPut(out.pausePoints);
    await db.ledger.bulkPut(out.ledger);

    // Page size 1: while pp-run-1's page is written (pp-other's is read meanwhile),
    // call-run finishes and call-late runs; pp-run-2's page is read after that.
    const chunks: string[] = [];
    let changed = false;
    await exportAuditLog(
      db,
      {},
      async (chunk) => {
        chunks.push(chunk);
        if (!changed && chunk.includes('pp-run-1')) {
          changed = true;
          await db.ledger.update('conv-run:call-run', { status: 'succeeded', finishedAt: at(402), result: 'done' });
          await db.ledger.put({ ...(await db.ledger.get('conv-run:call-run'))!, id: 'conv-run:call-late', toolCallId: 'call-late', status: 'succeeded', startedAt: at(403), finishedAt: at(404) });
        }
      },
      undefined,
      { pageSize: 1, deviceId: null },
    );
    const text = chunks.join('');
    const entries = byId(AuditLogFile.parse(JSON.parse(text)).entries);
    // pp-run-1 was joined when its page was read, before the call finished.
    expect(entries.get('pp-run-1')?.ledger).toMatchObject({ status: 'started', finished_at: null });
    // A cached `started` entry may have moved on: read again for pp-run-2 …
    expect(entries.get('pp-run-2')?.ledger).toMatchObject({ status: 'succeeded', finished_at: new Date(at(402)).toISOString() });
    // … and a rule's approval implies an entry the cache did not have.
    expect(entries.get('pp-run-3')?.ledger).toMatchObject({ status: 'succeeded', started_at: new Date(at(403)).toISOString() });
    expect((await verifyAuditFile(text)).ok).toBe(true);
  });

  it('stops when aborted and aborts the stream', async () => {
    const controller = new AbortController();
    let aborted: unknown;
    const stream = new WritableStream<string>({ abort: (reason) => void (aborted = reason) });
    const run = exportAuditLog(db, {}, stream, () => controller.abort(new Error('user cancelled')), { pageSize: 2, signal: controller.signal });
    await expect(run).rejects.toThrow('user cancelled');
    expect(aborted).toBeInstanceOf(Error);
  });

  it('refuses filters that are not filters', async () => {
    await expect(exportAuditLog(db, { status: 'approved' } as never, () => undefined)).rejects.toThrow();
  });
});
