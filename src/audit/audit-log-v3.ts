import { z } from 'zod';
import { RuleEffect } from '../engine/records/approval-rule.ts';
import { PausePoint } from '../engine/records/pause-point.ts';
import { AUDIT_FORMAT, AuditMetadata, HeadHash, IsoTime, JsonValue, Sha256Hex, SkippedRecord } from './audit-parts.ts';
import { AuditRuleSnapshot as AuditRuleSnapshotV2, chainShape, commonShape, decisionShapeV2, ruleEventShape as ruleEventShapeV2, ToolChangeEntry } from './audit-log-v2.ts';


/**
 * The audit log export format, version 3: frozen. Pausepoint no longer writes
 * it (version 4 is audit-entry.ts) but still verifies it
 * (`docs/audit-log-v3.schema.json` is this schema as JSON Schema). Its
 * decisions carry no device signature, and its files list no devices. Nothing
 * here may change.
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
 */
export const AUDIT_VERSION_3 = 3;

/** A file named in the log: by what identifies it, never its bytes or text (the file would carry every attachment otherwise). */
export const AuditAttachmentV3 = z
  .strictObject({
    name: z.string(),
    type: z.string().meta({ description: 'Its MIME type.' }),
    size: z.number().int().nonnegative().meta({ description: 'Its size in bytes.' }),
    sha256: Sha256Hex.meta({ description: 'SHA-256 of its bytes.' }),
    message_id: z.string().meta({ description: 'The person\'s message it was attached to.' }),
  })
  .meta({ description: 'A file the person attached to a message.' });
/** A version 3 decision's members (version 4 adds to them). */
export const decisionShapeV3 = {
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
    .array(AuditAttachmentV3)
    .optional()
    .meta({
      description:
        'The files the person had attached to the conversation before the model proposed this call, in the version of the conversation it was proposed in: what the model had been given. Absent when there were none.',
    }),
};

export const AuditRuleSnapshotV3 = AuditRuleSnapshotV2.extend({
  dry_run: z.boolean().meta({ description: 'True for a dry-run rule: it decides nothing, and records each call it would have decided.' }),
}).meta({ description: 'The rule as it was right after the change (for a removal: as it was when removed).' });

export const ruleEventShapeV3 = { ...ruleEventShapeV2, rule: AuditRuleSnapshotV3 };

export const dryRunShapeV3 = {
  entry_type: z.literal('rule_dry_run'),
  ...commonShape,
  at: IsoTime,
  rule: AuditRuleSnapshotV3.meta({ description: 'The dry-run rule as it was when the call was made.' }),
  would: RuleEffect.meta({ description: 'What the rule would have done had it been active: allow the call without a card, ask, or refuse it.' }),
  conversation_id: z.string(),
  tool_call_id: z.string(),
  tool_name: z.string(),
  arguments: JsonValue('The arguments the call would have run with.'),
};

const DecisionEntry = z
  .looseObject({ ...decisionShapeV3, ...chainShape })
  .meta({ description: 'A decision on a pause point: a person\'s, an approval rule\'s, or its expiry.' });
const RuleEventEntry = z
  .looseObject({ ...ruleEventShapeV3, ...chainShape })
  .meta({ description: 'An approval rule was made, restored from a backup, switched on or off, or removed.' });
const DryRunEntry = z
  .looseObject({ ...dryRunShapeV3, ...chainShape })
  .meta({ description: 'A dry-run approval rule would have decided a call; it decided nothing.' });

export const AuditEntryV3 = z.discriminatedUnion('entry_type', [DecisionEntry, RuleEventEntry, ToolChangeEntry, DryRunEntry]).meta({ description: 'One link of the hash chain.' });
export type AuditEntryV3 = z.infer<typeof AuditEntryV3>;

/**
 * The whole file. `entry_count`, `head_hash` and `skipped_records` follow the
 * entries because a streamed export only knows them at the end; JSON member
 * order does not matter.
 */
export const AuditLogFileV3 = z
  .strictObject({
    format: z.literal(AUDIT_FORMAT),
    version: z.literal(AUDIT_VERSION_3),
    metadata: AuditMetadata.meta({ description: 'How the file was made; in the chain: the first entry\'s prev_hash is the SHA-256 of the canonical JSON of {format, version, metadata}.' }),
    entries: z.array(AuditEntryV3).meta({ description: 'Every entry, oldest first, hash-chained.' }),
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
export type AuditLogFileV3 = z.infer<typeof AuditLogFileV3>;
