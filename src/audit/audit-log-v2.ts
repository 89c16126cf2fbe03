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

/**
 * The audit log export format, version 2: frozen. Pausepoint no longer writes
 * it (version 3 is audit-entry.ts) but still verifies it
 * (`docs/audit-log-v2.schema.json` is this schema as JSON Schema). Its files
 * chain the entries only: the metadata and `skipped_records` stand outside
 * the chain, which is why version 3 was made.
 *
 * Version 2 holds more than human decisions: every entry names its
 * `entry_type` — a decision on a pause point (a person's, an approval rule's,
 * or an expiry), a change to an approval rule, or an MCP tool whose
 * definition changed — and all of them are links of one hash chain.
 * Entries are open objects: a member added to version 2 after it was first
 * written (a tool call's `usage`) is optional, and one this schema does not
 * know still verifies. Nothing here may change.
 */
export const AUDIT_VERSION_2 = 2;

export const chainShape = { prev_hash: PrevHash, hash: EntryHash };

/** Members every version 2 entry has (besides `prev_hash` and `hash`). */
export const commonShape = {
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

export const decisionShapeV2 = {
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

export const AuditRuleSnapshot = z
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

export const RULE_EVENT_TYPES = ['rule_created', 'rule_restored', 'rule_enabled', 'rule_disabled', 'rule_removed'] as const;

export const ruleEventShape = {
  entry_type: z.enum(RULE_EVENT_TYPES),
  ...commonShape,
  at: IsoTime,
  decided_by: AuditDecidedBy.nullable().meta({ description: 'The tab and device where it was done; null when not known (a restore).' }),
  rule: AuditRuleSnapshot,
};

export const toolChangeShape = {
  entry_type: z.literal('tool_definition_changed'),
  ...commonShape,
  at: IsoTime,
  mcp: AuditMcpTool.meta({ description: 'The server and tool, with the definition hash it has now.' }),
  previous_definition_hash: z.string().meta({ description: 'The hash of the definition listed before this change.' }),
  pinned_definition_hash: z.string().meta({ description: 'The hash of the definition the user last approved a call of.' }),
  changes: z.array(z.string()).meta({ description: 'What changed since the pinned definition, one plain-text line each.' }),
};

/** Entries before they are chained (version 3 has the same tool entries; its rule entries add `dry_run` to the snapshot, audit-entry.ts). */
export const RuleEventEntryBody = z.object(ruleEventShape);
export type RuleEventEntryBody = z.infer<typeof RuleEventEntryBody>;
export const ToolChangeEntryBody = z.object(toolChangeShape);
export type ToolChangeEntryBody = z.infer<typeof ToolChangeEntryBody>;

const DecisionEntryV2 = z
  .looseObject({ ...decisionShapeV2, ...chainShape })
  .meta({ description: 'A decision on a pause point: a person\'s, an approval rule\'s, or its expiry.' });
export const RuleEventEntry = z
  .looseObject({ ...ruleEventShape, ...chainShape })
  .meta({ description: 'An approval rule was made, restored from a backup, switched on or off, or removed.' });
export type RuleEventEntry = z.infer<typeof RuleEventEntry>;
export const ToolChangeEntry = z
  .looseObject({ ...toolChangeShape, ...chainShape })
  .meta({ description: 'An MCP server listed one of its tools with a changed definition.' });
export type ToolChangeEntry = z.infer<typeof ToolChangeEntry>;

export const AuditEntryV2 = z.discriminatedUnion('entry_type', [DecisionEntryV2, RuleEventEntry, ToolChangeEntry]).meta({ description: 'One link of the hash chain.' });
export type AuditEntryV2 = z.infer<typeof AuditEntryV2>;

export const AuditLogFileV2 = z
  .strictObject({
    format: z.literal(AUDIT_FORMAT),
    version: z.literal(AUDIT_VERSION_2),
    metadata: AuditMetadata,
    entries: z.array(AuditEntryV2).meta({ description: 'Every entry, oldest first, hash-chained.' }),
    entry_count: z.number().int().nonnegative(),
    head_hash: HeadHash,
    skipped_records: z.array(SkippedRecord.meta({ description: 'A stored record that could not be read and is not in the chain.' })),
  })
  .meta({
    title: 'Pausepoint audit log',
    description:
      'Every decision on a pause point (by a person, by an approval rule, or by expiry), every change to the approval rules, and every changed MCP tool definition, joined with what explains them. Entries are hash-chained: see the README section "Audit log export".',
  });
export type AuditLogFileV2 = z.infer<typeof AuditLogFileV2>;
