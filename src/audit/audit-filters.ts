import { z } from 'zod';
import type { AuditEvent } from '../engine/records/audit-event.ts';
import { PauseKind, PauseStatus, type PausePoint } from '../engine/records/pause-point.ts';
import type { AuditMetadata } from './audit-entry.ts';

/** The largest epoch milliseconds a Date can hold: beyond it `toISOString` throws. */
const MAX_TIME = 8.64e15;

/**
 * Which pause points the audit view shows and an export contains. Every field
 * narrows; an empty object means all. `from`/`to` bound `createdAt` (epoch ms,
 * both inclusive). `text` is matched case-insensitively against the title,
 * description, reason, tool name and a string resolution.
 */
export const AuditFilters = z.strictObject({
  status: PauseStatus.optional(),
  kind: PauseKind.optional(),
  toolName: z.string().min(1).optional(),
  conversationId: z.string().min(1).optional(),
  from: z.number().min(-MAX_TIME).max(MAX_TIME).optional(),
  to: z.number().min(-MAX_TIME).max(MAX_TIME).optional(),
  text: z.string().min(1).optional(),
});
export type AuditFilters = z.infer<typeof AuditFilters>;

/** A predicate over stored pause points, for the filters no index answers. */
export function matchesFilters(filters: AuditFilters): (pausePoint: PausePoint) => boolean {
  const needle = filters.text?.toLocaleLowerCase();
  return (pp) =>
    (filters.status === undefined || pp.status === filters.status) &&
    (filters.kind === undefined || pp.kind === filters.kind) &&
    (filters.toolName === undefined || pp.toolName === filters.toolName) &&
    (filters.conversationId === undefined || pp.conversationId === filters.conversationId) &&
    (filters.from === undefined || pp.createdAt >= filters.from) &&
    (filters.to === undefined || pp.createdAt <= filters.to) &&
    (needle === undefined || searchableText(pp).includes(needle));
}

/**
 * Whether an audit event (a rule change, a changed MCP tool) belongs in an
 * export with these filters. Status and kind are a pause point's, so either
 * leaves every event out; the tool is the rule's tool or the MCP tool, the
 * conversation a scoped rule's, and the text is searched in the rule's words
 * or the tool's name and changes.
 */
export function matchesEventFilters(filters: AuditFilters): (event: AuditEvent) => boolean {
  const needle = filters.text?.toLocaleLowerCase();
  return (event) => {
    if (filters.status !== undefined || filters.kind !== undefined) return false;
    if (event.kind === 'push_sent') {
      // A push names no tool; its conversation is its card's, its text the server's origin and what went wrong.
      return (
        filters.toolName === undefined &&
        (filters.conversationId === undefined || event.conversationId === filters.conversationId) &&
        (filters.from === undefined || event.at >= filters.from) &&
        (filters.to === undefined || event.at <= filters.to) &&
        (needle === undefined || `${event.serverOrigin}\n${event.error ?? ''}`.toLocaleLowerCase().includes(needle))
      );
    }
    const rule = event.kind === 'tool_definition_changed' ? undefined : event.rule;
    // A dry run is about one call: its tool and conversation are the call's.
    const tool = event.kind === 'rule_dry_run' ? event.toolName : rule ? rule.tool : event.kind === 'tool_definition_changed' ? event.mcp.toolName : '';
    const conversationId =
      event.kind === 'rule_dry_run' ? event.conversationId : rule?.scope.kind === 'conversation' ? rule.scope.conversationId : undefined;
    const text = event.kind === 'tool_definition_changed' ? `${event.mcp.toolName}\n${event.mcp.serverName}\n${event.changes.join('\n')}` : event.ruleText;
    return (
      (filters.toolName === undefined || tool === filters.toolName) &&
      (filters.conversationId === undefined || conversationId === filters.conversationId) &&
      (filters.from === undefined || event.at >= filters.from) &&
      (filters.to === undefined || event.at <= filters.to) &&
      (needle === undefined || text.toLocaleLowerCase().includes(needle))
    );
  };
}

function searchableText(pp: PausePoint): string {
  const resolution = typeof pp.resolution === 'string' ? pp.resolution : '';
  return `${pp.title}\n${pp.description}\n${pp.reason ?? ''}\n${pp.toolName}\n${resolution}`.toLocaleLowerCase();
}

export function hasFilters(filters: AuditFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined);
}

/** The filters as the export file records them. */
export function filtersUsed(filters: AuditFilters): AuditMetadata['filters'] {
  return {
    status: filters.status ?? null,
    kind: filters.kind ?? null,
    tool_name: filters.toolName ?? null,
    conversation_id: filters.conversationId ?? null,
    created_from: filters.from === undefined ? null : new Date(filters.from).toISOString(),
    created_to: filters.to === undefined ? null : new Date(filters.to).toISOString(),
    text: filters.text ?? null,
  };
}
