import { z } from 'zod';
import { AUDIT_FORMAT, AuditMetadata, HeadHash, SkippedRecord } from './audit-parts.ts';
import { chainShape, ToolChangeEntry } from './audit-log-v2.ts';
import { AuditAttachmentV3, AuditRuleSnapshotV3, decisionShapeV3, dryRunShapeV3, ruleEventShapeV3 } from './audit-log-v3.ts';

export { AUDIT_FORMAT, AuditDecidedBy, AuditDecisionMessage, AuditMetadata, AuditToolCall, AuditToolResult, IsoTime, Sha256Hex } from './audit-parts.ts';
export { AuditMcpTool, AuditRuleRef, AuditToolCallV2, AuditUsage, RULE_EVENT_TYPES, ToolChangeEntry, ToolChangeEntryBody } from './audit-log-v2.ts';
import type { ToolChangeEntryBody } from './audit-log-v2.ts';

/**
 * The audit log export format, version 4: what Pausepoint writes.
 * `docs/audit-log.schema.json` is this schema as JSON Schema (generated from
 * it, and a test keeps the two equal); versions 1 to 3 still verify
 * (audit-log-v1.ts, audit-log-v2.ts, audit-log-v3.ts).
 *
 * Version 4 is version 3 with decisions a third party can attribute. Each
 * decision carries the deciding device's `device_signature` — `{alg: "ES256",
 * key_id, signed, value}`: `signed` is the exact object the device signed
 * when the decision was made (src/engine/signed-decision.ts), `value` the
 * base64url raw r‖s ECDSA P-256 / SHA-256 signature over the RFC 8785
 * canonical JSON of `signed` — and the file's top level lists the devices
 * whose keys verify them (`devices`: `key_id`, `name`, `public_key` as a JWK,
 * `key_id` being its RFC 7638 thumbprint), with the membership log that
 * vouches for them (`membership`, for a device that syncs; check-membership.ts).
 * The chain's first link covers them too: the first `prev_hash` is the hash of
 * every top-level member but `entries`, `entry_count`, `head_hash` and
 * `skipped_records`.
 *
 * **Adding to it.** As in version 3: a member added later to an entry is
 * optional (left out when there is nothing to say), entries are open objects
 * (every member, known or not, is covered by the entry's hash), and a change a
 * version 4 reader would refuse — a member removed, renamed or retyped, a new
 * `entry_type` — means a new `version`.
 */
export const AUDIT_VERSION = 4;

export const AuditAttachment = AuditAttachmentV3;
export type AuditAttachment = z.infer<typeof AuditAttachment>;

/** The names are the format's contract (issue 38): keep them. */
export const AuditDeviceSignature = z
  .strictObject({
    alg: z.literal('ES256'),
    key_id: z.string().min(1).max(100).meta({ description: 'The signing key\'s RFC 7638 JWK thumbprint: the `key_id` of one of the file\'s `devices`.' }),
    signed: z
      .looseObject({})
      .meta({
        description:
          'The exact object the device signed when the decision was made: card_id, view_hash (null when the decision carried none), status, resolution (the chosen option or the form\'s values; null for an expiry), by (person, rule, timeout or expiry), decided_at (ISO 8601), and when there is something to say edited_payload, reason, batch_id, rule_id, expired_reason.',
      }),
    value: z
      .string()
      .regex(/^[A-Za-z0-9_-]{86}$/)
      .meta({ description: 'The ECDSA P-256 / SHA-256 signature over the RFC 8785 canonical JSON of `signed`: raw r‖s (IEEE P1363, 64 bytes), base64url without padding.' }),
  })
  .meta({ description: 'The deciding device\'s signature of the decision, made when it was made.' });
export type AuditDeviceSignature = z.infer<typeof AuditDeviceSignature>;

/** A P-256 coordinate, base64url without padding: 32 bytes, 43 characters (as src/identity/signing-key-jwk.ts has it; not imported, to keep its hashing out of the audit view). */
const coordinate = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

export const AuditDevice = z
  .strictObject({
    key_id: z.string().meta({ description: 'The RFC 7638 thumbprint (SHA-256, base64url) of `public_key`.' }),
    name: z.string().meta({ description: 'The device\'s readable name.' }),
    public_key: z.strictObject({ kty: z.literal('EC'), crv: z.literal('P-256'), x: coordinate, y: coordinate }).meta({ description: 'The device\'s ECDSA P-256 public signing key as a JWK (RFC 7517).' }),
  })
  .meta({ description: 'A device whose signatures the file\'s decisions carry.' });
export type AuditDevice = z.infer<typeof AuditDevice>;

const decisionShape = {
  ...decisionShapeV3,
  device_signature: AuditDeviceSignature.optional().meta({
    description:
      'The deciding device\'s signature of the decision (see AuditDeviceSignature). Absent while pending, and on decisions stored before decisions were signed.',
  }),
  // Added to version 4 as an optional member (MCP Apps, issue 36): earlier version 4 files stay valid.
  proposed_by: z.literal('view').optional().meta({
    description: 'Who proposed the call: `view` when an MCP App\'s interactive view asked for it (a button in it), not the model. Absent: the model.',
  }),
  view_call_id: z.string().optional().meta({
    description: 'With proposed_by `view`: the tool call whose result the view was shown with (the call row it asked from).',
  }),
};

export const AuditRuleSnapshot = AuditRuleSnapshotV3;
export type AuditRuleSnapshot = z.infer<typeof AuditRuleSnapshot>;

/** Entries before they are chained (what `buildAuditEntry` and `buildEventEntry` make). */
export const DecisionEntryBody = z.object(decisionShape);
export type DecisionEntryBody = z.infer<typeof DecisionEntryBody>;
export const RuleEventEntryBody = z.object(ruleEventShapeV3);
export type RuleEventEntryBody = z.infer<typeof RuleEventEntryBody>;
export const DryRunEntryBody = z.object(dryRunShapeV3);
export type DryRunEntryBody = z.infer<typeof DryRunEntryBody>;
export type AuditEntryBody = DecisionEntryBody | RuleEventEntryBody | ToolChangeEntryBody | DryRunEntryBody;

export const DecisionEntry = z
  .looseObject({ ...decisionShape, ...chainShape })
  .meta({ description: 'A decision on a pause point: a person\'s, an approval rule\'s, or its expiry.' });
export type DecisionEntry = z.infer<typeof DecisionEntry>;
export const RuleEventEntry = z
  .looseObject({ ...ruleEventShapeV3, ...chainShape })
  .meta({ description: 'An approval rule was made, restored from a backup, switched on or off, or removed.' });
export type RuleEventEntry = z.infer<typeof RuleEventEntry>;
export const DryRunEntry = z
  .looseObject({ ...dryRunShapeV3, ...chainShape })
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
    metadata: AuditMetadata.meta({ description: 'How the file was made; in the chain (see devices).' }),
    devices: z.array(AuditDevice).meta({
      description:
        'The devices whose keys verify the decisions\' signatures. In the chain: the first entry\'s prev_hash is the SHA-256 of the canonical JSON of {format, version, metadata, devices} (and membership, when the file carries it).',
    }),
    membership: z
      .array(z.looseObject({}))
      .optional()
      .meta({
        description:
          'The membership log that vouches for the devices (src/sync/membership/membership-entry.ts): signed, hash-linked entries — found, add, remove — each signed by a member not removed at that point; every listed device is a member it names. Absent when this device never synced. In the chain with the devices.',
      }),
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
      'Every decision on a pause point (by a person, by an approval rule, or by expiry), each signed by the device that made it, every change to the approval rules, every call a dry-run rule would have decided, and every changed MCP tool definition, joined with what explains them. The metadata, the devices, the entries and the skipped records are hash-chained: see docs/formats.md, "Audit log".',
  });
export type AuditLogFile = z.infer<typeof AuditLogFile>;
