import type { AuditEvent } from '../engine/records/audit-event.ts';
import type { RuleEventEntryBody, ToolChangeEntryBody } from './audit-entry.ts';
import { isoTime } from './iso-time.ts';

export type BuiltEventEntry = { ok: true; body: RuleEventEntryBody | ToolChangeEntryBody } | { ok: false; reason: string };

/** An audit event (a rule's change, a changed MCP tool) in the export's shape. */
export function buildEventEntry(event: AuditEvent): BuiltEventEntry {
  const at = isoTime(event.at);
  if (at === null) return { ok: false, reason: 'Its time is not a valid date.' };
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
  const { rule } = event;
  const createdAt = isoTime(rule.createdAt);
  const expiresAt = rule.expiresAt === null ? null : isoTime(rule.expiresAt);
  if (createdAt === null || (rule.expiresAt !== null && expiresAt === null)) return { ok: false, reason: 'Its rule has a time that is not a valid date.' };
  return {
    ok: true,
    body: {
      at,
      decided_by: event.by ? { device_id: event.by.deviceId, label: event.by.label, tab_id: event.by.tabId } : null,
      entry_type: event.kind,
      id: event.id,
      rule: {
        conversation_id: rule.scope.kind === 'conversation' ? rule.scope.conversationId : null,
        created_at: createdAt,
        definition_hash: rule.definitionHash,
        effect: rule.effect,
        enabled: rule.enabled,
        expires_at: expiresAt,
        id: rule.id,
        match: rule.match,
        reason: rule.reason ?? null,
        scope: rule.scope.kind,
        source: rule.source,
        text: event.ruleText,
        tool: rule.tool,
      },
    },
  };
}
