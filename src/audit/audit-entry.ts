import { z } from 'zod';
import { RuleEffect } from '../engine/records/approval-rule.ts';
import { PausePoint } from '../engine/records/pause-point.ts';
import { AUDIT_FORMAT, AuditMetadata, HeadHash, IsoTime, JsonValue, Sha256Hex, SkippedRecord } from './audit-parts.ts';
import { AuditRuleSnapshot as AuditRuleSnapshotV2, chainShape, commonShape, decisionShapeV2, ruleEventShape as ruleEventShapeV2, ToolChangeEntry } from './audit-log-v2.ts';

export { AUDIT_FORMAT, AuditDecidedBy, AuditDecisionMessage, AuditMetadata, AuditToolCall, AuditToolResult, IsoTime, Sha256Hex } from './audit-parts.ts';
export { AuditMcpTool, AuditRuleRef, AuditToolCallV2, AuditUsage, RULE_EVENT_TYPES, ToolChangeEntry, ToolChangeEntryBody } from './audit-log-v2.ts';
import type { ToolChangeEntryBody } from './audit-log-v2.ts';

/**
 * The audit log export format, version 3: what Pausepoint writes.
 * `docs/audit-log.schema.json` is this schema as JSON Schema (generated from
 * it, and a test keeps the two equal); versions 1 and 2 still verify
 * (audit-log-v1.ts, audit-log-v2.ts).
 *
 * Version 3 is version 2 with these changes. The file's metadata and its
 * `skipped_records` are in the chain (hash-chain.ts: `chainStart`,
 * `chainSeal`): the first entry's `prev_hash` is the hash of the format,
 * version and metadata, and `head_hash` seals the last entry's hash with
 * `entry_count` and `skipped_records`, so none of them can be edited without
 * the file failing. Each `decision` says how its decision reached this
 * browser (`decided_via`) and which device made it (`decided_by_device`).
 * One more `entry_type`, `rule_dry_run`: a call a dry-run rule would have
 * decided (it decided nothing). And every rule snapshot says whether the rule
 * is a dry run (`dry_run`).
 *
 * **Adding to it.** As in version 2: a member added later to an entry is
 * optional (left out when there is nothing to say), entries are open objects
 * (every member, known or not, is covered by the entry's hash), and a change a
 * version 3 reader would refuse — a member removed, renamed or retyped, a new
 * `entry_type` — means a new `version`.
 */
export const AUDIT_VERSION = 3;

/** A file named in the log: by what identifies it, never its bytes or text (the file would carry every attachment otherwise). */
export const AuditAttachment = z
  .strictObject({
    name: z.string(),
    type: z.string().meta({ description: 'Its MIME type.' }),
    size: z.number().int().nonnegative().meta({ description: 'Its size in bytes.' }),
    sha256: Sha256Hex.meta({ description: 'SHA-256 of its bytes.' }),
    message_id: z.string().meta({ description: 'The person\'s message it was attached to.' }),
  })
  .meta({ description: 'A file the person attached to a message.' });
export type AuditAttachment = z.infer<typeof AuditAttachment>;
const decisionShape = {
  ...decisionShapeV2,
  decided_via: z
    .enum(['local', 'sync'])
    .nullable()
    .meta({ description: 'How the decision reached this browser: made here ("local": a card, a notification, a rule, an expiry) or on another device, through the sync server ("sync"); null while pending.' }),
  decided_by_device: z
    .strictObject({
      id: z.string().meta({ description: 'The deciding device\'s id.' }),
      name: z.string().meta({ description: 'A readable name of the device (and how it decided: a tab, a notification).' }),
    })
    .nullable()
    .meta({ description: 'The device that decided; null while pending, and when no device is on record (a rule, an expiry).' }),
  // Added after version 3 was first written: optional, left out when the record has none.
  risk: PausePoint.shape.risk.meta({
    description: 'The call\'s risk label when its card was made: reads, changes, destructive or unknown (src/engine/risk-label.ts). Absent on records from before cards carried one.',
  }),
  batch_id: z
    .string()
    .optional()
    .meta({ description: 'Present when this card was decided with others in one press (Approve all, Decline all): the same id on each card of the batch.' }),
  view_hash: Sha256Hex.optional()
    .meta({
      description:
        'SHA-256 (hex) of the decision view the person decided on: the card\'s title, tool, warnings, description and every argument as it would run, as src/engine/view-hash.ts encodes them. The decision was refused had the card, as it would run then, shown anything else. Absent for decisions no person made (a rule, an expiry) and for those made before decisions carried it.',
    }),
  attachments: z
    .array(AuditAttachment)
    .optional()
    .meta({
      description:
        'The files the person had attached to the conversation before the model proposed this call, in the version of the conversation it was proposed in: what the model had been given. Absent when there were none.',
    }),
};

export const AuditRuleSnapshot = AuditRuleSnapshotV2.extend({
  dry_run: z.boolean().meta({ description: 'True for a dry-run rule: it decides nothing, and records each call it would have decided.' }),
}).meta({ description: 'The rule as it was right after the change (for a removal: as it was when removed).' });
export type AuditRuleSnapshot = z.infer<typeof AuditRuleSnapshot>;

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

/** Entries before they are chained (what `buildAuditEntry` and `buildEventEntry` make). */
export const DecisionEntryBody = z.object(decisionShape);
export type DecisionEntryBody = z.infer<typeof DecisionEntryBody>;
export const RuleEventEntryBody = z.object(ruleEventShape);
export type RuleEventEntryBody = z.infer<typeof RuleEventEntryBody>;
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
export const DryRunEntry = z
  .looseObject({ ...dryRunShape, ...chainShape })
  .meta({ description: 'A dry-run approval rule would have decided a call; it decided nothing.' });
export type DryRunEntry = z.infer<typeof DryRunEntry>;

export const AuditEntry = z.discriminatedUnion('entry_type', [DecisionEntry, RuleEventEntry, ToolChangeEntry, DryRunEntry]).meta({ description: 'One link of the hash chain.' });
export type AuditEntry = z.infer<typeof AuditEntry>;

/**
 * The whole file. `entry_count`, `head_hash` and `skipped_records` follow the
 * entries because a streamed export only knows them at the end; JSON member
 * order does not matter.
 */
export const AuditLogFile = z
  .strictObject({
    format: z.literal(AUDIT_FORMAT),
    version: z.literal(AUDIT_VERSION),
    metadata: AuditMetadata.meta({ description: 'How the file was made; in the chain: the first entry\'s prev_hash is the SHA-256 of the canonical JSON of {format, version, metadata}.' }),
    entries: z.array(AuditEntry).meta({ description: 'Every entry, oldest first, hash-chained.' }),
    entry_count: z.number().int().nonnegative(),
    head_hash: HeadHash.meta({
      description: 'The seal of the chain: SHA-256 of the canonical JSON of {entry_count, prev_hash: the last entry\'s hash (the chain start when there are none), skipped_records}.',
    }),
    skipped_records: z.array(SkippedRecord.meta({ description: 'A stored record that could not be read and is not in the chain as an entry (the seal covers this list).' })),
  })
  .meta({
    title: 'Pausepoint audit log',
    description:
      'Every decision on a pause point (by a person, by an approval rule, or by expiry), every change to the approval rules, every call a dry-run rule would have decided, and every changed MCP tool definition, joined with what explains them. The metadata, the entries and the skipped records are hash-chained: see docs/formats.md, "Audit log".',
  });
export type AuditLogFile = z.infer<typeof AuditLogFile>;
