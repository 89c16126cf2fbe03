import { LedgerEntry, ledgerId } from '../../engine/records/ledger-entry.ts';
import type { PausePoint } from '../../engine/records/pause-point.ts';
import type { PausepointDb } from '../../storage/db.ts';

export interface AuditRow {
  pausePoint: PausePoint;
  conversationTitle: string | null;
  /** How the guarded call's execution ended, when it ran (or started to). */
  ledger: LedgerEntry | null;
}

/** Joins a batch of pause points with their ledger entries and conversation titles: two bulk gets. */
export async function joinAuditRows(db: PausepointDb, batch: readonly PausePoint[]): Promise<AuditRow[]> {
  const conversationIds = [...new Set(batch.map((pp) => pp.conversationId))];
  const [ledger, conversations] = await Promise.all([
    db.ledger.bulkGet(batch.map((pp) => ledgerId(pp.conversationId, pp.toolCallId))),
    db.conversations.bulkGet(conversationIds),
  ]);
  const titles = new Map<string, string>();
  conversations.forEach((conversation, index) => {
    if (conversation && typeof conversation.title === 'string') titles.set(conversationIds[index]!, conversation.title);
  });
  return batch.map((pausePoint, index) => {
    // Stored records are checked before they are shown: a malformed ledger entry reads as none.
    const entry = LedgerEntry.safeParse(ledger[index]);
    return { pausePoint, conversationTitle: titles.get(pausePoint.conversationId) ?? null, ledger: entry.success ? entry.data : null };
  });
}
