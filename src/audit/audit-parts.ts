import { z } from 'zod';
import { LedgerEntry } from '../engine/records/ledger-entry.ts';
import { ToolMessage } from '../engine/records/message.ts';
import { PauseKind, PauseStatus } from '../engine/records/pause-point.ts';

/**
 * The pieces every version of the audit log export shares (see
 * audit-log-v1.ts and audit-entry.ts). A version that is published is
 * frozen: changing anything here that an existing version uses means that
 * version's files no longer read, so a change goes into a new piece instead.
 */
export const AUDIT_FORMAT = 'pausepoint.audit-log';

/** Exactly what `Date.prototype.toISOString` writes for the years a browser clock gives. */
export const IsoTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  .meta({ description: 'A time in UTC, ISO 8601 with milliseconds.' });

export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/).meta({ description: 'A SHA-256 digest, 64 lowercase hex digits.' });

/** A JSON value of any type, `null` included; the member itself must be present. */
export const JsonValue = (description: string) => z.unknown().meta({ description });

export const AuditToolCall = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    arguments: z.string().meta({ description: 'The arguments as the model proposed them: raw JSON text, possibly malformed.' }),
    message_id: z.string(),
    turn_index: z.number().int().nonnegative(),
    created_at: IsoTime,
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

export const PrevHash = Sha256Hex.meta({ description: 'The previous entry\'s hash; 64 zeros for the first entry.' });
export const EntryHash = Sha256Hex.meta({ description: 'SHA-256 of the canonical JSON of this entry without its hash member.' });
export const HeadHash = Sha256Hex.meta({ description: 'The last entry\'s hash; 64 zeros when there are no entries.' });
