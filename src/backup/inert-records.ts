import { isActive, type ApprovalRule, type Conversation, type ConversationState, type LedgerEntry, type PausePoint } from '../engine/records/index.ts';
import type { BackupRecords } from './backup-format.ts';

/** What a restored conversation that was working says in its status bar, beside Continue. */
export const RESTORED_INTERRUPTED_MESSAGE = 'Restored from a backup made while it was working. Nothing has run here since; press Continue to go on.';

/**
 * The backup's records as a restore writes them: brought back so that nothing
 * acts by itself. A backup is data from elsewhere (another browser, or whoever
 * made the file), and only a person in this browser may set anything going.
 *
 * - A conversation that was running (or retrying, or waiting for the network)
 *   comes back interrupted, with Continue: the worker's sweep recovers active
 *   conversations on its own, and this one has no tab here to recover from.
 *   A paused one stays paused while it has a pending card (only a decision here
 *   moves it); paused with none left, it was about to go on, so it comes back
 *   interrupted too. Idle and error states are already inert.
 * - A pending card stays pending (deciding it is a decision made here) but
 *   loses its expiry: an expiring card ends the wait and goes on without anyone
 *   deciding, on a clock set in another browser.
 * - A card decided elsewhere is marked `restored`, so the engine never runs a
 *   call on that approval; it asks again (src/engine/restored-decisions.ts).
 * - Allow rules come back switched off and every rule is marked as from a
 *   backup: a stolen or crafted file must not grant anything. Ask and deny rules
 *   come back on, since they only restrict.
 *
 * - A ledger entry that says its call was `started` is marked `restored`: the
 *   engine re-runs a started read after a crash here on its own, but nobody here
 *   saw this one approved or start, so it asks with a fresh gate card instead
 *   (src/engine/restored-start.ts). Other entries are kept as they are: a
 *   finished one is only read back, and an unknown one asks already.
 *
 * - A conversation comes back without the device it ran on (`ownerDevice`,
 *   from sync): restored, it runs here, and nowhere else is told it ran.
 *
 * Messages and notes are kept as they are.
 */
export function inertRecords(records: BackupRecords): BackupRecords {
  const pendingCards = new Map<string, number>();
  for (const pause of records.pausePoints) {
    if (pause.status === 'pending') pendingCards.set(pause.conversationId, (pendingCards.get(pause.conversationId) ?? 0) + 1);
  }
  return {
    ...records,
    conversations: records.conversations.map((conversation) => inertConversation(conversation, pendingCards.get(conversation.id) ?? 0)),
    pausePoints: records.pausePoints.map(inertPausePoint),
    ledger: records.ledger.map(inertLedgerEntry),
    approvalRules: records.approvalRules.map(inertRule),
  };
}

// Restored, it is this browser's: the device it ran on (sync) is another browser's word, and would keep it from running here.
function inertConversation({ ownerDevice: _elsewhere, ...conversation }: Conversation, pending: number): Conversation {
  const state = inertState(conversation.state, pending);
  return { ...conversation, state };
}

function inertState(state: ConversationState, pending: number): ConversationState {
  if (isActive(state) || (state.kind === 'paused' && pending === 0)) {
    return { kind: 'error', code: 'interrupted', message: RESTORED_INTERRUPTED_MESSAGE, retryable: true };
  }
  if (state.kind === 'paused' && state.pending !== pending) return { kind: 'paused', pending };
  return state;
}

function inertPausePoint(pause: PausePoint): PausePoint {
  if (pause.status !== 'pending') return { ...pause, restored: true };
  // A crafted file could mark a pending card restored: deciding it here is a decision made here.
  const { restored: _restored, ...card } = pause;
  return { ...card, expiresAt: null };
}

function inertLedgerEntry(entry: LedgerEntry): LedgerEntry {
  return entry.status === 'started' ? { ...entry, restored: true } : entry;
}

function inertRule(rule: ApprovalRule): ApprovalRule {
  return { ...rule, source: 'backup', enabled: rule.effect !== 'allow' };
}
