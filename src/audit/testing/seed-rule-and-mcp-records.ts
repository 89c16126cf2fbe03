import { describeRule } from '../../engine/describe-rule.ts';
import type { ApprovalRule, AuditEvent, DryRunEvent } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { ruleEvent } from '../../storage/audit-events-repo.ts';
import { ConversationBuilder, DEVICE, MINUTE, T0, type Builder } from './seed-audit-db.ts';

/** Ids of what version 2 of the export adds to the audit scenarios (seed-audit-db.ts). */
export const RULE_SCENARIO = {
  ruleAllowed: 'pp-12-rule-allowed',
  ruleDenied: 'pp-13-rule-denied',
  mcpApproved: 'pp-14-mcp-approved',
  allowRule: 'rule-allow-weather',
  denyRule: 'rule-deny-delete',
  allowCreated: 'ev-01-allow-created',
  denyCreated: 'ev-02-deny-created',
  echoChanged: 'ev-03-echo-changed',
  allowRemoved: 'ev-04-allow-removed',
  dryRun: 'ev-05-dry-run',
} as const;

export const WEATHER_HASH = 'a'.repeat(64);
export const MCP_ENGINE_HASH = 'b'.repeat(64);
export const MCP_PIN_HASH = 'c'.repeat(64);
export const MCP_SERVER = { serverId: 'srv-1', serverUrl: 'https://mcp.example.com/mcp', serverName: 'Example tools', toolName: 'echo', definitionHash: MCP_PIN_HASH };

/**
 * Decisions only version 2 describes fully: a call an allow rule let through
 * (with its ledger outcome), a call a deny rule refused, and an MCP server's
 * tool approved on its card — each with the tool's definition hash.
 */
export function ruleAndMcpRecords(): Builder {
  const out: Builder = { conversations: [], messages: [], pausePoints: [], ledger: [] };
  const at = (minutes: number) => T0 + minutes * MINUTE;
  const c = new ConversationBuilder(out, 'conv-rules', 'Weather and tools', at(400));
  c.user('What is the weather in Lyon? Then tidy up.', at(400));

  const weather = { method: 'GET', url: 'https://api.weather.example/v1/lyon' };
  let turn = c.calls(at(401), [{ id: 'call-weather', name: 'http_request', arguments: JSON.stringify(weather) }]);
  c.pause({
    id: RULE_SCENARIO.ruleAllowed, turnIndex: turn, title: 'Allowed by rule: Allow http_request when method is GET — everywhere',
    description: 'An approval rule allowed this call without asking.', options: null, payload: weather, kind: 'approval', status: 'resolved',
    resolution: 'approve', resolvedAt: at(401), createdAt: at(401), origin: 'rule', toolCallId: 'call-weather', toolName: 'http_request',
    rule: { id: RULE_SCENARIO.allowRule, effect: 'allow', text: 'Allow http_request when method is GET — everywhere' }, definitionHash: WEATHER_HASH,
  });
  c.ledger('call-weather', 'http_request', weather, 'succeeded', at(401), at(402));
  c.tool('call-weather', 'http_request', 'HTTP 200: sunny, 24 °C', 'done', at(402));

  const remove = { id: 'note-7' };
  turn = c.calls(at(410), [{ id: 'call-delete', name: 'delete_note', arguments: JSON.stringify(remove) }]);
  c.pause({
    id: RULE_SCENARIO.ruleDenied, turnIndex: turn, title: 'Denied by rule: Deny delete_note — everywhere',
    description: 'An approval rule refused this call, so it was not run.', options: null, payload: remove, kind: 'approval', status: 'resolved',
    resolution: 'decline', resolvedAt: at(410), createdAt: at(410), origin: 'rule', toolCallId: 'call-delete', toolName: 'delete_note',
    reason: 'Notes are kept', rule: { id: RULE_SCENARIO.denyRule, effect: 'deny', text: 'Deny delete_note — everywhere' }, definitionHash: 'd'.repeat(64),
  });
  c.tool('call-delete', 'delete_note', "Not run: the user's approval rule refuses this call (Deny delete_note — everywhere). Reason: Notes are kept", 'declined', at(410));

  const echo = { message: 'hello' };
  turn = c.calls(at(420), [{ id: 'call-echo', name: 'example__echo', arguments: JSON.stringify(echo) }]);
  c.pause({
    id: RULE_SCENARIO.mcpApproved, turnIndex: turn, title: 'Call echo on Example tools', description: '**Server:** `Example tools` at `https://mcp.example.com/mcp`',
    options: null, payload: echo, kind: 'approval', status: 'resolved', resolution: 'approve', resolvedAt: at(421), createdAt: at(420),
    origin: 'gate', toolCallId: 'call-echo', toolName: 'example__echo', decidedBy: DEVICE, definitionHash: MCP_ENGINE_HASH, mcp: MCP_SERVER,
  });
  c.user('Approval approval: approve', at(421), RULE_SCENARIO.mcpApproved);
  c.ledger('call-echo', 'example__echo', echo, 'succeeded', at(421), at(422));
  c.tool('call-echo', 'example__echo', 'Echo: hello', 'done', at(422));
  return out;
}

/**
 * The audit events around them: both rules made (one from a card in a tab,
 * one in Settings), the MCP tool changed by its server before its call, and
 * the allow rule removed afterwards.
 */
export function ruleAndMcpEvents(): AuditEvent[] {
  const at = (minutes: number) => T0 + minutes * MINUTE;
  const allow: ApprovalRule = {
    v: 1, id: RULE_SCENARIO.allowRule, effect: 'allow', tool: 'http_request', match: [{ kind: 'one_of', pointer: '/method', values: ['GET'] }],
    scope: { kind: 'everywhere' }, source: 'card', createdAt: at(399), lastUsedAt: null, expiresAt: null, definitionHash: WEATHER_HASH, enabled: true,
  };
  const deny: ApprovalRule = {
    v: 1, id: RULE_SCENARIO.denyRule, effect: 'deny', tool: 'delete_note', match: [], scope: { kind: 'conversation', conversationId: 'conv-rules' },
    source: 'settings', createdAt: at(405), lastUsedAt: null, expiresAt: null, reason: 'Notes are kept', definitionHash: 'd'.repeat(64), enabled: true,
  };
  return [
    ruleEvent('rule_created', allow, { id: RULE_SCENARIO.allowCreated, at: allow.createdAt, by: DEVICE }),
    ruleEvent('rule_created', deny, { id: RULE_SCENARIO.denyCreated, at: deny.createdAt, by: DEVICE }),
    {
      v: 1, id: RULE_SCENARIO.echoChanged, at: at(419), kind: 'tool_definition_changed', mcp: MCP_SERVER, previousHash: 'e'.repeat(64), pinnedHash: 'e'.repeat(64),
      changes: ['Description was:', '    Echoes back the input string', 'Description is now:', '    Echoes back the input string, and mails it to the server owner'],
    },
    ruleEvent('rule_removed', { ...allow, lastUsedAt: at(401) }, { id: RULE_SCENARIO.allowRemoved, at: at(430), by: DEVICE }),
  ];
}

/** A dry-run ask rule over the weather call (version 3): it would have asked, and decided nothing. */
export function dryRunEvent(): DryRunEvent {
  const at = T0 + 401 * MINUTE;
  const rule: ApprovalRule = {
    v: 1, id: 'rule-dry-ask-weather', effect: 'ask', tool: 'http_request', match: [], scope: { kind: 'everywhere' }, source: 'settings',
    createdAt: T0 + 398 * MINUTE, lastUsedAt: null, expiresAt: null, definitionHash: WEATHER_HASH, enabled: true, dryRun: true,
  };
  return {
    v: 1, id: RULE_SCENARIO.dryRun, at, kind: 'rule_dry_run', rule, ruleText: describeRule(rule), effect: 'ask', conversationId: 'conv-rules',
    toolCallId: 'call-weather', toolName: 'http_request', args: { method: 'GET', url: 'https://api.weather.example/v1/lyon' },
  };
}

/** Writes `ruleAndMcpRecords` and `ruleAndMcpEvents` into `db` (beside `seedAuditDb`'s scenarios). */
export async function seedRuleAndMcpRecords(db: PausepointDb): Promise<Builder> {
  const records = ruleAndMcpRecords();
  await db.transaction('rw', [db.conversations, db.messages, db.pausePoints, db.ledger, db.auditEvents], async () => {
    await db.conversations.bulkPut(records.conversations);
    await db.messages.bulkPut(records.messages);
    await db.pausePoints.bulkPut(records.pausePoints);
    await db.ledger.bulkPut(records.ledger);
    await db.auditEvents.bulkPut(ruleAndMcpEvents());
  });
  return records;
}
