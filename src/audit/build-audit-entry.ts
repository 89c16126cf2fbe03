import type { PausePoint } from '../engine/records/pause-point.ts';
import type { DecisionEntryBody } from './audit-entry.ts';
import type { Explanation, LedgerOutcome } from './conversation-explanations.ts';
import { isoTime } from './iso-time.ts';

export type BuiltEntry = { ok: true; body: DecisionEntryBody } | { ok: false; reason: string };

/**
 * Members are written in sorted order (here and in conversation-explanations.ts):
 * canonical JSON then reuses these objects instead of copying them in order.
 *
 * One pause point joined with what explains it, in the export's shape (a
 * `decision` entry of version 4). Stored
 * values that may be absent (`editedPayload`, a missing payload) become `null`
 * so every entry has every member.
 */
export function buildAuditEntry(pp: PausePoint, explanation: Explanation | undefined, ledger: LedgerOutcome | undefined): BuiltEntry {
  const createdAt = isoTime(pp.createdAt);
  const resolvedAt = pp.resolvedAt === null ? null : isoTime(pp.resolvedAt);
  const expiresAt = pp.expiresAt === null ? null : isoTime(pp.expiresAt);
  if (createdAt === null || (pp.resolvedAt !== null && resolvedAt === null) || (pp.expiresAt !== null && expiresAt === null)) {
    return { ok: false, reason: 'A stored time (createdAt, resolvedAt or expiresAt) is not a valid date.' };
  }
  let ledgerPart: DecisionEntryBody['ledger'] = null;
  if (ledger) {
    const startedAt = isoTime(ledger.startedAt);
    const finishedAt = ledger.finishedAt === null ? null : isoTime(ledger.finishedAt);
    if (startedAt === null || (ledger.finishedAt !== null && finishedAt === null)) {
      return { ok: false, reason: `Its ledger entry ${ledger.id} has a time that is not a valid date.` };
    }
    ledgerPart = { args: ledger.args ?? null, attempts: ledger.attempts, finished_at: finishedAt, started_at: startedAt, status: ledger.status };
  }
  return {
    ok: true,
    body: {
      entry_type: 'decision',
      id: pp.id,
      conversation_id: pp.conversationId,
      conversation_title: explanation?.title ?? null,
      turn_index: pp.turnIndex,
      title: pp.title,
      description: pp.description,
      options: pp.options,
      payload: pp.payload ?? null,
      kind: pp.kind,
      status: pp.status,
      resolution: pp.resolution ?? null,
      resolved_at: resolvedAt,
      created_at: createdAt,
      edited_payload: pp.editedPayload ?? null,
      reason: pp.reason ?? null,
      expires_at: expiresAt,
      expired_reason: pp.expiredReason ?? null,
      decided_by: pp.decidedBy ? { device_id: pp.decidedBy.deviceId, label: pp.decidedBy.label, tab_id: pp.decidedBy.tabId } : null,
      decided_via: pp.status === 'pending' ? null : pp.decidedBy?.via === 'sync' ? 'sync' : 'local',
      decided_by_device: pp.status !== 'pending' && pp.decidedBy ? { id: pp.decidedBy.deviceId, name: pp.decidedBy.label } : null,
      origin: pp.origin,
      tool_call_id: pp.toolCallId,
      tool_name: pp.toolName,
      tool_call: explanation?.toolCalls.get(pp.toolCallId) ?? null,
      decision_message: explanation?.decisions.get(pp.id) ?? null,
      tool_results: explanation?.toolResults.get(pp.toolCallId) ?? [],
      ledger: ledgerPart,
      decision_origin: decisionOrigin(pp),
      restored: pp.restored === true,
      rule: pp.rule ? { effect: pp.rule.effect, id: pp.rule.id, text: pp.rule.text } : null,
      definition_hash: pp.definitionHash ?? null,
      mcp: pp.mcp
        ? { definition_hash: pp.mcp.definitionHash, server_id: pp.mcp.serverId, server_name: pp.mcp.serverName, server_url: pp.mcp.serverUrl, tool_name: pp.mcp.toolName }
        : null,
      ...(pp.risk === undefined ? {} : { risk: pp.risk }),
      ...(pp.batchId === undefined ? {} : { batch_id: pp.batchId }),
      ...(pp.viewHash === undefined ? {} : { view_hash: pp.viewHash }),
      ...(pp.fromView ? { proposed_by: 'view' as const, view_call_id: pp.fromView.viewCallId } : {}),
      ...(pp.deviceSignature === undefined || pp.status === 'pending' ? {} : { device_signature: pp.deviceSignature }),
      ...(explanation?.attachments.get(pp.toolCallId) ? { attachments: explanation.attachments.get(pp.toolCallId) } : {}),
    },
  };
}

/** Who decided: a rule's decisions are stored resolved with origin `rule`; every other resolution is a person's on a card. */
function decisionOrigin(pp: PausePoint): DecisionEntryBody['decision_origin'] {
  if (pp.status === 'pending') return null;
  if (pp.status === 'expired') return 'expiry';
  return pp.origin === 'rule' ? 'rule' : 'human';
}
