import { z } from 'zod';
import { ApprovalRule, RuleEffect } from './approval-rule.ts';
import { DecidedBy, McpToolSource } from './pause-point.ts';

export const RULE_EVENT_KINDS = ['rule_created', 'rule_restored', 'rule_enabled', 'rule_disabled', 'rule_removed'] as const;
export const RuleEventKind = z.enum(RULE_EVENT_KINDS);
export type RuleEventKind = z.infer<typeof RuleEventKind>;

/**
 * Something the audit log records that is not a decision on a pause point:
 * an approval rule made (from a card or Settings), restored from a backup,
 * switched on or off, or removed — with the rule as it was then, and its
 * text, since the rule itself may change or go — a call a dry-run rule would
 * have decided, or an MCP tool whose
 * definition a server changed. Append-only: written in the transaction of
 * the change it records, never updated.
 */
export const AuditEvent = z.discriminatedUnion('kind', [
  z.object({
    v: z.literal(1),
    id: z.string(),
    at: z.number(),
    kind: RuleEventKind,
    rule: ApprovalRule,
    /** The rule in plain words (describe-rule.ts) as it read then. */
    ruleText: z.string(),
    /** The tab and device where it was done, when known. */
    by: DecidedBy.optional(),
  }),
  z.object({
    v: z.literal(1),
    id: z.string(),
    at: z.number(),
    /** A dry-run rule would have decided this call, had it been active (evaluate-rules.ts); it decided nothing. */
    kind: z.literal('rule_dry_run'),
    rule: ApprovalRule,
    ruleText: z.string(),
    /** What the rule would have done: `allow` ran it without a card, `deny` refused it, `ask` asked. */
    effect: RuleEffect,
    conversationId: z.string(),
    toolCallId: z.string(),
    toolName: z.string(),
    /** The arguments the call would have run with. */
    args: z.unknown(),
  }),
  z.object({
    v: z.literal(1),
    id: z.string(),
    at: z.number(),
    kind: z.literal('tool_definition_changed'),
    /** The server and tool, with the definition hash the server lists now. */
    mcp: McpToolSource,
    previousHash: z.string(),
    /** The definition the user last approved a call of (what the next card compares with). */
    pinnedHash: z.string(),
    /** What changed since the pinned definition, in plain text lines (definition-pin.ts). */
    changes: z.array(z.string()),
  }),
  z.object({
    v: z.literal(1),
    id: z.string(),
    at: z.number(),
    /**
     * A push notification was sent (or failed) for a card (src/push): when, to
     * which server origin, and whether it went — never what it said, which is
     * nothing about the card anyway. Not in the audit export: its version 3
     * has no entry type for it (a new one means a new version).
     */
    kind: z.literal('push_sent'),
    pausePointId: z.string(),
    conversationId: z.string(),
    /** `new`: after the grace period; `reminder`; `decline_warning`: before `If nobody decides` declines it. */
    reason: z.enum(['new', 'reminder', 'decline_warning']),
    serverOrigin: z.string(),
    ok: z.boolean(),
    error: z.string().optional(),
  }),
]);
export type AuditEvent = z.infer<typeof AuditEvent>;
export type PushEvent = Extract<AuditEvent, { kind: 'push_sent' }>;
/** The events the audit export carries (its version 3 knows no `push_sent`). */
export type ExportedAuditEvent = Exclude<AuditEvent, PushEvent>;
export type RuleEvent = Extract<AuditEvent, { kind: RuleEventKind }>;
export type DryRunEvent = Extract<AuditEvent, { kind: 'rule_dry_run' }>;
