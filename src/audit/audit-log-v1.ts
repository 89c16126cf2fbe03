import { z } from 'zod';
import { PauseKind, PausePoint, PauseStatus } from '../engine/records/pause-point.ts';
import {
  AUDIT_FORMAT,
  AuditDecidedBy,
  AuditDecisionMessage,
  AuditLedger,
  AuditMetadata,
  AuditToolCall,
  AuditToolResult,
  EntryHash,
  HeadHash,
  IsoTime,
  JsonValue,
  PrevHash,
  SkippedRecord,
} from './audit-parts.ts';

/**
 * The audit log export format, version 1: frozen. Pausepoint no longer writes
 * it but still verifies it (`docs/audit-log-v1.schema.json` is this schema as
 * JSON Schema). One entry per pause point; every member present, `null` when
 * absent. Nothing here may change: files exported by earlier builds must keep
 * reading exactly as they did.
 */
export const AUDIT_VERSION_1 = 1;

/** A version 1 entry before it is chained: everything but `prev_hash` and `hash`. */
export const AuditEntryBodyV1 = z.strictObject({
  id: z.string().meta({ description: 'The pause point id.' }),
  conversation_id: z.string(),
  conversation_title: z.string().nullable().meta({ description: 'Null when the conversation no longer exists.' }),
  turn_index: z.number().int().nonnegative(),
  title: z.string(),
  description: z.string().meta({ description: 'Markdown, as shown on the card.' }),
  options: z.array(z.string()).nullable(),
  payload: JsonValue('The payload as proposed (for a gated call: its arguments).'),
  kind: PauseKind,
  status: PauseStatus,
  resolution: JsonValue('"approve", "decline", the chosen option, or the submitted form data; null until decided.'),
  resolved_at: IsoTime.nullable(),
  created_at: IsoTime,
  edited_payload: JsonValue('The payload as approved after an edit; null when approved as proposed.'),
  reason: z.string().nullable().meta({ description: 'The decline reason, or the reply given with another decision.' }),
  expires_at: IsoTime.nullable(),
  expired_reason: z.enum(['timeout', 'abandoned', 'lost']).nullable(),
  decided_by: AuditDecidedBy.nullable(),
  origin: PausePoint.shape.origin,
  tool_call_id: z.string(),
  tool_name: z.string(),
  tool_call: AuditToolCall.nullable(),
  decision_message: AuditDecisionMessage.nullable(),
  tool_results: z.array(AuditToolResult).meta({ description: 'Every tool result message for the guarded call, in conversation order.' }),
  ledger: AuditLedger.nullable(),
});

export const AuditEntryV1 = AuditEntryBodyV1.extend({ prev_hash: PrevHash, hash: EntryHash });
export type AuditEntryV1 = z.infer<typeof AuditEntryV1>;

export const AuditLogFileV1 = z
  .strictObject({
    format: z.literal(AUDIT_FORMAT),
    version: z.literal(AUDIT_VERSION_1),
    metadata: AuditMetadata,
    entries: z.array(AuditEntryV1).meta({ description: 'One entry per pause point, oldest first, hash-chained.' }),
    entry_count: z.number().int().nonnegative(),
    head_hash: HeadHash,
    skipped_records: z.array(SkippedRecord),
  })
  .meta({
    title: 'Pausepoint audit log',
    description:
      'Every human decision on a pause point, joined with the messages that explain it. Entries are hash-chained: see the README section "Audit log export".',
  });
export type AuditLogFileV1 = z.infer<typeof AuditLogFileV1>;
