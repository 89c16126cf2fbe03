import { z } from 'zod';
import { RuleEffect } from '../engine/records/approval-rule.ts';
import { PausePoint } from '../engine/records/pause-point.ts';
import { AuditEntryBodyV1 } from './audit-log-v1.ts';
import {
  AUDIT_FORMAT,
  AuditDecidedBy,
  AuditMetadata,
  AuditToolCall,
  EntryHash,
  HeadHash,
  IsoTime,
  JsonValue,
  PrevHash,
  SkippedRecord,
} from './audit-parts.ts';

export { AUDIT_FORMAT, AuditDecidedBy, AuditDecisionMessage, AuditMetadata, AuditToolCall, AuditToolResult, IsoTime, Sha256Hex } from './audit-parts.ts';

/**
 * The audit log export format, version 3: what Pausepoint writes. Version 3
 * is version 2 with one more `entry_type`, `rule_dry_run` (a call a dry-run
 * rule would have decided), and `dry_run` in every rule snapshot; version 2
 * files still verify, against their own schema (`AuditLogFileV2`).
 * `docs/audit-log.schema.json` is this schema as JSON Schema (generated from
 * it, and a test keeps the two equal); version 1 files still verify
 * (audit-log-v1.ts).
 *
 * Version 2 holds more than human decisions: every entry names its
 * `entry_type` — a decision on a pause point (a person's, an approval rule's,
 * or an expiry), a change to an approval rule, or an MCP tool whose
 * definition changed — and all of them are links of one hash chain.
 *
 * Everything is snake_case; times are ISO 8601 UTC strings. Members that
 * version 2 was published with are always present, `null` when absent.
 *
 * **Adding to it.** A member added later to an entry is optional
 * (`.optional()`, left out when there is nothing to say), so files written
 * before it still verify as version 2; and entries are open objects, so a
 * file written after it verifies with a build that predates it (every member,
 * known or not, is covered by the entry's hash). Put such a member into the
 * entry type it belongs to below, or into `commonShape` for every entry. A
 * change a version 2 reader would refuse — a member removed, renamed or
 * retyped, a new `entry_type` — means a new `version`.
 */
export const AUDIT_VERSION = 3;
/** Version 2: as version 3 without `rule_dry_run` entries, and its rule snapshots without `dry_run`. */
export const AUDIT_VERSION_2 = 2;

const chainShape = { prev_hash: PrevHash, hash: EntryHash };

/** Members every version 2 entry has (besides `prev_hash` and `hash`). */
const commonShape = {
  id: z.string().meta({ description: 'The pause point id (decisions) or the audit event id (rule and tool changes).' }),
};

const Tokens = z.number().int().nonnegative();

export const AuditUsage = z
  .strictObject({
    model: z.string().meta({ description: 'The model id the endpoint reported (or the one asked for).' }),
    prompt_tokens: Tokens,
    completion_tokens: Tokens,
    cached_tokens: Tokens.meta({ description: 'The part of prompt_tokens the endpoint read from its cache.' }),
    reasoning_tokens: Tokens.meta({ description: 'The part of completion_tokens spent reasoning.' }),
  })
  .meta({ description: 'What the model call that proposed this tool call used, as the endpoint reported it. Absent when it reported nothing (and in files written before it existed).' });

/** Version 2's tool call: version 1's, and the usage of the model call that proposed it — optional, added after version 2 was first written. */
export const AuditToolCallV2 = AuditToolCall.extend({ usage: AuditUsage.optional() }).meta({
  description: 'The tool call this pause point guarded, from the assistant message that made it.',
});

export const AuditRuleRef = z
  .strictObject({
    id: z.string(),
    effect: RuleEffect,
    text: z.string().meta({ description: 'The rule in plain words as it read when it applied (it may have changed or gone since).' }),
  })
  .meta({ description: 'The approval rule that decided this call, or had it asked.' });

export const AuditMcpTool = z
  .strictObject({
    server_id: z.string(),
    server_url: z.string(),
    server_name: z.string().meta({ description: 'The name the server was shown under (the one the user gave, or its host).' }),
    tool_name: z.string().meta({ description: 'The tool\'s name on its server (not the name the model was offered it under).' }),
    definition_hash: z.string().meta({ description: 'SHA-256 (hex) of the tool\'s definition as the server listed it (src/mcp/definition-pin.ts).' }),
  })
  .meta({ description: 'The MCP server and tool a call was made to.' });

const decisionShape = {
  entry_type: z.literal('decision'),
  ...AuditEntryBodyV1.shape,
  ...commonShape,
  tool_call: AuditToolCallV2.nullable(),
  origin: PausePoint.shape.origin,
  decision_origin: z
    .enum(['human', 'rule', 'expiry'])
    .nullable()
    .meta({ description: 'Who decided: a person on the card, an approval rule without a card, or nobody (it expired); null while pending.' }),
  restored: z.boolean().meta({ description: 'True when a backup brought this record here already decided: the decision was made in another browser.' }),
  rule: AuditRuleRef.nullable(),
  definition_hash: z
    .string()
    .nullable()
    .meta({ description: 'SHA-256 (hex) of the tool\'s definition as the model was given it (name, description, input schema); null when not recorded.' }),
  mcp: AuditMcpTool.nullable(),
};

export const AuditRuleSnapshotV2 = z
  .strictObject({
    id: z.string(),
    effect: RuleEffect,
    text: z.string().meta({ description: 'The rule in plain words.' }),
    tool: z.string().meta({ description: 'A tool name, or a glob over names.' }),
    match: z.array(JsonValue('An argument condition, as the rule stores it.')),
    scope: z.enum(['everywhere', 'conversation']),
    conversation_id: z.string().nullable(),
    source: z.enum(['card', 'settings', 'backup']),
    enabled: z.boolean(),
    definition_hash: z.string().nullable(),
    created_at: IsoTime,
    expires_at: IsoTime.nullable(),
    reason: z.string().nullable(),
  })
  .meta({ description: 'The rule as it was right after the change (for a removal: as it was when removed).' });

export const AuditRuleSnapshot = AuditRuleSnapshotV2.extend({
  dry_run: z.boolean().meta({ description: 'True for a dry-run rule: it decides nothing, and records each call it would have decided.' }),
}).meta({ description: 'The rule as it was right after the change (for a removal: as it was when removed).' });
export type AuditRuleSnapshot = z.infer<typeof AuditRuleSnapshot>;

export const RULE_EVENT_TYPES = ['rule_created', 'rule_restored', 'rule_enabled', 'rule_disabled', 'rule_removed'] as const;

const ruleEventShapeV2 = {
  entry_type: z.enum(RULE_EVENT_TYPES),
  ...commonShape,
  at: IsoTime,
  decided_by: AuditDecidedBy.nullable().meta({ description: 'The tab and device where it was done; null when not known (a restore).' }),
  rule: AuditRuleSnapshotV2,
};
const ruleEventShape = { ...ruleEventShapeV2, rule: AuditRuleSnapshot };

const dryRunShape = {
  entry_type: z.literal('rule_dry_run'),
  ...commonShape,
  at: IsoTime,
  rule: AuditRuleSnapshot.meta({ description: 'The dry-run rule as it was when the call was made.' }),
  would: RuleEffect.meta({ description: 'What the rule would have done had it been active: allow the call without a card, ask, or refuse it.' }),
  conversation_id: z.string(),
  tool_call_id: z.string(),
  tool_name: z.string(),
  arguments: JsonValue('The arguments the call would have run with.'),
};

const toolChangeShape = {
  entry_type: z.literal('tool_definition_changed'),
  ...commonShape,
  at: IsoTime,
  mcp: AuditMcpTool.meta({ description: 'The server and tool, with the definition hash it has now.' }),
  previous_definition_hash: z.string().meta({ description: 'The hash of the definition listed before this change.' }),
  pinned_definition_hash: z.string().meta({ description: 'The hash of the definition the user last approved a call of.' }),
  changes: z.array(z.string()).meta({ description: 'What changed since the pinned definition, one plain-text line each.' }),
};

/** Entries before they are chained (what `buildAuditEntry` and `auditEventEntry` make). */
export const DecisionEntryBody = z.object(decisionShape);
export type DecisionEntryBody = z.infer<typeof DecisionEntryBody>;
export const RuleEventEntryBody = z.object(ruleEventShape);
export type RuleEventEntryBody = z.infer<typeof RuleEventEntryBody>;
export const ToolChangeEntryBody = z.object(toolChangeShape);
export type ToolChangeEntryBody = z.infer<typeof ToolChangeEntryBody>;
export const DryRunEntryBody = z.object(dryRunShape);
export type DryRunEntryBody = z.infer<typeof DryRunEntryBody>;
export type AuditEntryBody = DecisionEntryBody | RuleEventEntryBody | ToolChangeEntryBody | DryRunEntryBody;

export const DecisionEntry = z
  .looseObject({ ...decisionShape, ...chainShape })
  .meta({ description: 'A decision on a pause point: a person\'s, an approval rule\'s, or its expiry.' });
export type DecisionEntry = z.infer<typeof DecisionEntry>;
export const RuleEventEntry = z
  .looseObject({ ...ruleEventShape, ...chainShape })
  .meta({ description: 'An approval rule was made, restored from a backup, switched on or off, or removed.' });
export type RuleEventEntry = z.infer<typeof RuleEventEntry>;
export const ToolChangeEntry = z
  .looseObject({ ...toolChangeShape, ...chainShape })
  .meta({ description: 'An MCP server listed one of its tools with a changed definition.' });
export type ToolChangeEntry = z.infer<typeof ToolChangeEntry>;

export const DryRunEntry = z
  .looseObject({ ...dryRunShape, ...chainShape })
  .meta({ description: 'A dry-run approval rule would have decided a call; it decided nothing.' });
export type DryRunEntry = z.infer<typeof DryRunEntry>;

export const AuditEntry = z.discriminatedUnion('entry_type', [DecisionEntry, RuleEventEntry, ToolChangeEntry, DryRunEntry]).meta({ description: 'One link of the hash chain.' });
export type AuditEntry = z.infer<typeof AuditEntry>;

const RuleEventEntryV2 = z
  .looseObject({ ...ruleEventShapeV2, ...chainShape })
  .meta({ description: 'An approval rule was made, restored from a backup, switched on or off, or removed.' });
export const AuditEntryV2 = z.discriminatedUnion('entry_type', [DecisionEntry, RuleEventEntryV2, ToolChangeEntry]).meta({ description: 'One link of the hash chain.' });
export type AuditEntryV2 = z.infer<typeof AuditEntryV2>;

/**
 * The whole file. `entry_count` and `head_hash` follow the entries because a
 * streamed export only knows them at the end; JSON member order does not matter.
 */
function auditLogFile<V extends number, E extends z.ZodType>(version: V, entry: E, description: string) {
  return z
    .strictObject({
      format: z.literal(AUDIT_FORMAT),
      version: z.literal(version),
      metadata: AuditMetadata,
      entries: z.array(entry).meta({ description: 'Every entry, oldest first, hash-chained.' }),
      entry_count: z.number().int().nonnegative(),
      head_hash: HeadHash,
      skipped_records: z.array(SkippedRecord.meta({ description: 'A stored record that could not be read and is not in the chain.' })),
    })
    .meta({ title: 'Pausepoint audit log', description });
}

const DESCRIBED_V2 =
  'Every decision on a pause point (by a person, by an approval rule, or by expiry), every change to the approval rules, and every changed MCP tool definition, joined with what explains them. Entries are hash-chained: see the README section "Audit log export".';

export const AuditLogFile = auditLogFile(
  AUDIT_VERSION,
  AuditEntry,
  'Every decision on a pause point (by a person, by an approval rule, or by expiry), every change to the approval rules, every call a dry-run rule would have decided, and every changed MCP tool definition, joined with what explains them. Entries are hash-chained: see the README section "Audit log export".',
);
export type AuditLogFile = z.infer<typeof AuditLogFile>;

/** Version 2 files, as they were written before dry-run rules (docs/audit-log-v2.schema.json). */
export const AuditLogFileV2 = auditLogFile(AUDIT_VERSION_2, AuditEntryV2, DESCRIBED_V2);
export type AuditLogFileV2 = z.infer<typeof AuditLogFileV2>;
