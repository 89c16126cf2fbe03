import type { AuditEvent } from '../engine/records/audit-event.ts';
import type { ApprovalRule } from '../engine/records/approval-rule.ts';
import type { AuditRuleSnapshot, DryRunEntryBody, RuleEventEntryBody, ToolChangeEntryBody } from './audit-entry.ts';
import { isoTime } from './iso-time.ts';

export type BuiltEventEntry = { ok: true; body: RuleEventEntryBody | ToolChangeEntryBody | DryRunEntryBody } | { ok: false; reason: string };

/** An audit event (a rule's change, a dry run's call, a changed MCP tool) in the export's shape. */
export function buildEventEntry(event: AuditEvent): BuiltEventEntry {
  const at = isoTime(event.at);
  if (at === null) return { ok: false, reason: 'Its time is not a valid date.' };
  // Left out by the export's filters (audit-filters.ts); here for the type's sake.
  if (event.kind === 'push_sent') return { ok: false, reason: 'A push record has no entry type in this format version.' };
  if (event.kind === 'tool_definition_changed') {
    const { mcp } = event;
    return {
      ok: true,
      body: {
        at,
        changes: event.changes,
        entry_type: event.kind,
        id: event.id,
        mcp: { definition_hash: mcp.definitionHash, server_id: mcp.serverId, server_name: mcp.serverName, server_url: mcp.serverUrl, tool_name: mcp.toolName },
        pinned_definition_hash: event.pinnedHash,
        previous_definition_hash: event.previousHash,
      },
    };
  }
  const rule = ruleSnapshot(event.rule, event.ruleText);
  if (rule === null) return { ok: false, reason: 'Its rule has a time that is not a valid date.' };
  if (event.kind === 'rule_dry_run') {
    return {
      ok: true,
      body: {
        arguments: event.args as DryRunEntryBody['arguments'],
        at,
        conversation_id: event.conversationId,
        entry_type: event.kind,
        id: event.id,
        rule,
        tool_call_id: event.toolCallId,
        tool_name: event.toolName,
        would: event.effect,
      },
    };
  }
  return {
    ok: true,
    body: {
      at,
      decided_by: event.by ? { device_id: event.by.deviceId, label: event.by.label, tab_id: event.by.tabId } : null,
      entry_type: event.kind,
      id: event.id,
      rule,
    },
  };
}

/** A rule as the export shows it, or null when one of its times is not a valid date. */
function ruleSnapshot(rule: ApprovalRule, text: string): AuditRuleSnapshot | null {
  const createdAt = isoTime(rule.createdAt);
  const expiresAt = rule.expiresAt === null ? null : isoTime(rule.expiresAt);
  if (createdAt === null || (rule.expiresAt !== null && expiresAt === null)) return null;
  return {
    conversation_id: rule.scope.kind === 'conversation' ? rule.scope.conversationId : null,
    created_at: createdAt,
    definition_hash: rule.definitionHash,
    dry_run: rule.dryRun === true,
    effect: rule.effect,
    enabled: rule.enabled,
    expires_at: expiresAt,
    id: rule.id,
    match: rule.match as AuditRuleSnapshot['match'],
    reason: rule.reason ?? null,
    scope: rule.scope.kind,
    source: rule.source,
    text,
    tool: rule.tool,
  };
}
