import { z } from 'zod';
import { PausePoint } from '../engine/records/pause-point.ts';
import { AUDIT_FORMAT, AuditMetadata, HeadHash, SkippedRecord } from './audit-parts.ts';
import { chainShape, decisionShapeV2, RuleEventEntry, ToolChangeEntry } from './audit-log-v2.ts';

export { AUDIT_FORMAT, AuditDecidedBy, AuditDecisionMessage, AuditMetadata, AuditToolCall, AuditToolResult, IsoTime, Sha256Hex } from './audit-parts.ts';
export {
  AuditMcpTool,
  AuditRuleRef,
  AuditRuleSnapshot,
  AuditToolCallV2,
  AuditUsage,
  RULE_EVENT_TYPES,
  RuleEventEntry,
  RuleEventEntryBody,
  ToolChangeEntry,
  ToolChangeEntryBody,
} from './audit-log-v2.ts';
import type { RuleEventEntryBody, ToolChangeEntryBody } from './audit-log-v2.ts';

/**
 * The audit log export format, version 3: what Pausepoint writes.
 * `docs/audit-log.schema.json` is this schema as JSON Schema (generated from
 * it, and a test keeps the two equal); versions 1 and 2 still verify
 * (audit-log-v1.ts, audit-log-v2.ts).
 *
 * Version 3 is version 2 with two changes. The file's metadata and its
 * `skipped_records` are in the chain (hash-chain.ts: `chainStart`,
 * `chainSeal`): the first entry's `prev_hash` is the hash of the format,
 * version and metadata, and `head_hash` seals the last entry's hash with
 * `entry_count` and `skipped_records`, so none of them can be edited without
 * the file failing. And each `decision` says how its decision reached this
 * browser (`decided_via`) and which device made it (`decided_by_device`).
 *
 * **Adding to it.** As in version 2: a member added later to an entry is
 * optional (left out when there is nothing to say), entries are open objects
 * (every member, known or not, is covered by the entry's hash), and a change a
 * version 3 reader would refuse — a member removed, renamed or retyped, a new
 * `entry_type` — means a new `version`.
 */
export const AUDIT_VERSION = 3;

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
};

/** Entries before they are chained (what `buildAuditEntry` and `auditEventEntry` make). */
export const DecisionEntryBody = z.object(decisionShape);
export type DecisionEntryBody = z.infer<typeof DecisionEntryBody>;
export type AuditEntryBody = DecisionEntryBody | RuleEventEntryBody | ToolChangeEntryBody;

export const DecisionEntry = z
  .looseObject({ ...decisionShape, ...chainShape })
  .meta({ description: 'A decision on a pause point: a person\'s, an approval rule\'s, or its expiry.' });
export type DecisionEntry = z.infer<typeof DecisionEntry>;

export const AuditEntry = z.discriminatedUnion('entry_type', [DecisionEntry, RuleEventEntry, ToolChangeEntry]).meta({ description: 'One link of the hash chain.' });
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
      'Every decision on a pause point (by a person, by an approval rule, or by expiry), every change to the approval rules, and every changed MCP tool definition, joined with what explains them. The metadata, the entries and the skipped records are hash-chained: see the README section "Audit log export".',
  });
export type AuditLogFile = z.infer<typeof AuditLogFile>;
