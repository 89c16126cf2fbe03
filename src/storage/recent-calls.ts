import type { StoredCall } from '../engine/preview-rule.ts';
import { ledgerId, LedgerEntry, PausePoint } from '../engine/records/index.ts';
import { WAIT_FOR_APPROVAL } from '../engine/wait-for-approval.ts';
import type { PausepointDb } from './db.ts';
import { toStorageError } from './storage-error.ts';

/** Pause points that stand for a call a rule could have decided: a gate's card, or a rule's own decision. */
const CALL_ORIGINS: ReadonlySet<PausePoint['origin']> = new Set(['gate', 'rule']);

/**
 * The most recent tool calls (at most `limit`, newest first), from the audit's
 * own records, in one transaction: every call that ran has a ledger entry
 * (with the arguments it ran with), and every call that was asked about or
 * decided by a rule has a pause point (with the arguments as proposed). A call
 * with both is listed once, with the ledger's arguments and the earlier time.
 * `wait_for_approval` is left out: no rule decides it. Rows that do not parse
 * are skipped: a preview counts what can be read.
 */
export async function readRecentCalls(db: PausepointDb, limit: number): Promise<StoredCall[]> {
  let ledgerRows: unknown[];
  let pauseRows: unknown[];
  try {
    [ledgerRows, pauseRows] = await db.transaction('r', [db.ledger, db.pausePoints], () =>
      Promise.all([db.ledger.toArray() as Promise<unknown[]>, db.pausePoints.orderBy('createdAt').reverse().limit(limit * 2).toArray() as Promise<unknown[]>]),
    );
  } catch (error) {
    throw toStorageError(error);
  }
  const calls = new Map<string, StoredCall>();
  for (const row of ledgerRows) {
    const parsed = LedgerEntry.safeParse(row);
    if (!parsed.success || parsed.data.toolName === WAIT_FOR_APPROVAL) continue;
    const { conversationId, toolCallId, toolName, args, startedAt } = parsed.data;
    calls.set(parsed.data.id, { at: startedAt, conversationId, toolCallId, toolName, args });
  }
  for (const row of pauseRows) {
    const parsed = PausePoint.safeParse(row);
    if (!parsed.success || !CALL_ORIGINS.has(parsed.data.origin)) continue;
    const { conversationId, toolCallId, toolName, payload, createdAt } = parsed.data;
    const id = ledgerId(conversationId, toolCallId);
    const known = calls.get(id);
    if (known) known.at = Math.min(known.at, createdAt);
    else calls.set(id, { at: createdAt, conversationId, toolCallId, toolName, args: payload });
  }
  return [...calls.values()].sort((a, b) => b.at - a.at).slice(0, limit);
}
