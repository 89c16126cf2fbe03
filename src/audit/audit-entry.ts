import { z } from 'zod';
import { PauseKind, PausePoint, PauseStatus } from '../engine/records/pause-point.ts';
import { LedgerEntry } from '../engine/records/ledger-entry.ts';
import { ToolMessage } from '../engine/records/message.ts';

/**
 * The audit log export format, version 1. `docs/audit-log.schema.json` is this
 * schema as JSON Schema (generated from it, and a test keeps the two equal).
 *
 * Everything is snake_case, with the pause point fields named as in the product
 * contract; times are ISO 8601 UTC strings; absent values are `null`, never left
 * out, so every entry has the same members. Changing anything here that a
 * version 1 reader would not accept means a new `version`.
 */
export const AUDIT_FORMAT = 'pausepoint.audit-log';
export const AUDIT_VERSION = 1;

/** Exactly what `Date.prototype.toISOString` writes for the years a browser clock gives. */
export const IsoTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  .meta({ description: 'A time in UTC, ISO 8601 with milliseconds.' });

export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/).meta({ description: 'A SHA-256 digest, 64 lowercase hex digits.' });

/** A JSON value of any type, `null` included; the member itself must be present. */
const JsonValue = (description: string) => z.unknown().meta({ description });

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

export const AuditToolCall = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    arguments: z.string().meta({ description: 'The arguments as the model proposed them: raw JSON text, possibly malformed.' }),
    message_id: z.string(),
    turn_index: z.number().int().nonnegative(),
    created_at: IsoTime,
    /** Optional, unlike every other member: version 1 files written before it existed have none, and stay valid. */
    usage: AuditUsage.optional(),
  })
  .meta({ description: 'The tool call this pause point guarded, from the assistant message that made it.' });

export const AuditDecisionMessage = z
  .strictObject({
    id: z.string(),
    seq: z.number().int().nonnegative(),
    content: z.string().meta({ description: 'The synthetic user message stating the decision, as the model read it.' }),
    created_at: IsoTime,
  })
  .meta({ description: 'The message written into the conversation when the decision was made.' });

export const AuditToolResult = z
  .strictObject({
    id: z.string(),
    seq: z.number().int().nonnegative(),
    content: z.string().meta({ description: 'What the model read as the tool call result.' }),
    outcome: ToolMessage.shape.outcome,
    created_at: IsoTime,
  })
  .meta({ description: 'A tool result message for the guarded call.' });

export const AuditLedger = z
  .strictObject({
    status: LedgerEntry.shape.status,
    attempts: z.number().int().positive(),
    args: JsonValue('The arguments the tool actually ran with (after any approved edit).'),
    started_at: IsoTime,
    finished_at: IsoTime.nullable(),
  })
  .meta({ description: 'What came of executing the guarded call, from the execution ledger.' });

export const AuditDecidedBy = z.strictObject({
  tab_id: z.string(),
  device_id: z.string(),
  label: z.string().meta({ description: 'A readable name of the browser or device.' }),
});

/** An entry before it is chained: everything but `prev_hash` and `hash`. */
export const AuditEntryBody = z.strictObject({
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
export type AuditEntryBody = z.infer<typeof AuditEntryBody>;

export const AuditEntry = AuditEntryBody.extend({
  prev_hash: Sha256Hex.meta({ description: 'The previous entry\'s hash; 64 zeros for the first entry.' }),
  hash: Sha256Hex.meta({ description: 'SHA-256 of the canonical JSON of this entry without its hash member.' }),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditFiltersUsed = z
  .strictObject({
    status: PauseStatus.nullable(),
    kind: PauseKind.nullable(),
    tool_name: z.string().nullable(),
    conversation_id: z.string().nullable(),
    created_from: IsoTime.nullable(),
    created_to: IsoTime.nullable(),
    text: z.string().nullable(),
  })
  .meta({ description: 'The filters the export was made with; all null for a complete export.' });

export const AuditMetadata = z.strictObject({
  app_version: z.string(),
  exported_at: IsoTime,
  device_id: z.string().nullable(),
  filters: AuditFiltersUsed,
});
export type AuditMetadata = z.infer<typeof AuditMetadata>;

export const SkippedRecord = z
  .strictObject({ id: z.string(), reason: z.string() })
  .meta({ description: 'A stored pause point that could not be read and is not in the chain.' });

/**
 * The whole file. `entry_count` and `head_hash` follow the entries because a
 * streamed export only knows them at the end; JSON member order does not matter.
 */
export const AuditLogFile = z
  .strictObject({
    format: z.literal(AUDIT_FORMAT),
    version: z.literal(AUDIT_VERSION),
    metadata: AuditMetadata,
    entries: z.array(AuditEntry).meta({ description: 'One entry per pause point, oldest first, hash-chained.' }),
    entry_count: z.number().int().nonnegative(),
    head_hash: Sha256Hex.meta({ description: 'The last entry\'s hash; 64 zeros when there are no entries.' }),
    skipped_records: z.array(SkippedRecord),
  })
  .meta({
    title: 'Pausepoint audit log',
    description:
      'Every human decision on a pause point, joined with the messages that explain it. Entries are hash-chained: see the README section "Audit log export".',
  });
export type AuditLogFile = z.infer<typeof AuditLogFile>;
