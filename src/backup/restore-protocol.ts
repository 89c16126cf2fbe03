import { z } from 'zod';
import type { RestoreProgress, RestoreResult } from './restore-backup.ts';

/**
 * What a restore in the import worker (src/worker/import.worker.ts) sends
 * back to the page: its progress, then its result. Parsed by the page
 * (import-protocol.ts names the messages).
 */
const Count = z.number().int().nonnegative();

export const RestoreProgressWire = z.object({
  phase: z.enum(['checking', 'writing']),
  records: Count,
  totalRecords: Count.nullable(),
  bytes: Count,
  totalBytes: Count,
}) satisfies z.ZodType<RestoreProgress>;

const Limit = z.enum(['maxTokens', 'tokenLimit', 'costLimit', 'dailyCostLimit']);

export const RestoreResultWire = z.object({
  conversations: Count,
  messages: Count,
  attachments: Count,
  pausePoints: Count,
  ledger: Count,
  notes: Count,
  approvalRules: Count,
  allowRulesOff: Count,
  auditEvents: Count,
  interrupted: Count,
  conversationsKept: Count,
  settings: z.enum(['restored', 'unchanged', 'kept_current', 'absent']),
  apiKeyMissing: z.boolean(),
  keptStricter: z.array(
    z.union([z.object({ setting: Limit, kept: z.number(), backup: z.number().nullable() }), z.object({ setting: z.literal('price'), model: z.string() })]),
  ),
  skippedInBackup: Count,
  stopped: z.object({ reason: z.literal('cancelled'), while: z.enum(['checking', 'writing']) }).nullable(),
  conversationsLeft: Count,
  bytes: Count,
}) satisfies z.ZodType<RestoreResult>;
