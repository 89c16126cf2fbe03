import { ledgerId, type AuditEvent, type Conversation, type LedgerEntry, type Message, type PausePoint, type RuleStateEvent } from '../engine/records/index.ts';
import { clampAuditEvent, clampConversation, clampLedgerEntry, clampMessage, clampPausePoint, clampTime } from './clamp-times.ts';
import { inertRuleEvent } from './inert-rule.ts';
import type { FromDevice } from './provenance.ts';

/** A record another of the person's devices pushed, with the id its sync document is sealed under. */
export type SyncedRecord =
  | { kind: 'conversation'; id: string; record: Conversation }
  | { kind: 'message'; id: string; record: Message }
  | { kind: 'pausePoint'; id: string; record: PausePoint }
  | { kind: 'ledger'; id: string; record: LedgerEntry }
  | { kind: 'ruleEvent'; id: string; record: RuleStateEvent }
  | { kind: 'auditEvent'; id: string; record: AuditEvent }
  | { kind: 'pushSettings'; id: string; record: SharedSetting };

/**
 * A setting a device shares with the person's other devices, where the later
 * save stands (push settings: src/push/shared-push-settings.ts). Its content
 * is checked by its own schema where it is decoded; what the inert path owns
 * is whose it is and when it says it was saved.
 */
export interface SharedSetting {
  id: string;
  savedAt: number;
}

export type Admitted<S extends SyncedRecord> = { ok: true; synced: S } | { ok: false; problem: string };

/**
 * A record from one of the person's paired devices, through the inert path's
 * rules that hold for such a record. A paired device is not "a file": it holds
 * the data key, the person uses it, and deciding a card there is a feature. So
 * ids are kept (the same card is decided on every device), open calls stay
 * open, decisions stay as the owner recorded them, instructions stay on and
 * usage counts (it was spent, on this person's key, today's limit included).
 * What holds for it as for a file:
 *
 * - **Well-formed and bounded**: the zod schema of the record (the sync
 *   document's), checked before this is called.
 * - **Ids that say what they are**: the record's id is the one its sealed
 *   document names; a conversation is written by its owner device; a ledger
 *   entry's id is `<conversation>:<call>`; a rule event's is `<device>:<seq>`
 *   and it makes the rule it names. Anything else is refused.
 * - **No more granted than a restore could** (inert-rule.ts `inertRuleEvent`):
 *   rules arrive as immutable events, and a rule is what they fold to, so a
 *   device can neither rewrite a rule's definition, nor bring a removed one
 *   back, nor undo a disable it had not seen; a rule from a backup arrives
 *   as a restore writes it (an allow rule off).
 * - **Times clamped** to when it arrived: a device whose clock runs ahead can
 *   neither date a card after every later decision nor spend tomorrow today.
 * - **A shared setting is its device's own** and its save is dated no later
 *   than its arrival, so the later save stands fairly (push settings).
 * - **Nothing it brings is honoured by the engine on its own.** The sync applies
 *   a conversation's records only on a device that does not run it (its owner
 *   ignores them: apply-documents.ts), and the engine runs only the
 *   conversations whose owner is this device; so a synced card, decision or
 *   ledger entry is only ever shown. A decision made on another device reaches
 *   the owner as a claim, and the owner applies it through the same
 *   compare-and-set as a card decided here (decision-claims.ts).
 */
export function admitSynced<S extends SyncedRecord>(synced: S, from: FromDevice): Admitted<S> {
  const refuse = (problem: string): Admitted<S> => ({ ok: false, problem });
  if (synced.record.id !== synced.id) return refuse('its record has another id than its document');
  const admitted = (record: S['record']): Admitted<S> => ({ ok: true, synced: { ...synced, record } });
  switch (synced.kind) {
    case 'conversation':
      if (synced.record.ownerDevice?.id !== from.deviceId) return refuse('a conversation is written by the device it runs on only');
      return admitted(clampConversation(synced.record, from.at));
    case 'message':
      return admitted(clampMessage(synced.record, from.at));
    case 'pausePoint':
      return admitted(clampPausePoint(synced.record, from.at));
    case 'ledger':
      if (synced.record.id !== ledgerId(synced.record.conversationId, synced.record.toolCallId)) return refuse('its id is not its conversation and call');
      return admitted(clampLedgerEntry(synced.record, from.at));
    case 'ruleEvent': {
      const event = inertRuleEvent(synced.record, from.at);
      return event ? admitted(event) : refuse('a rule event whose ids do not say what it is');
    }
    case 'auditEvent':
      return admitted(clampAuditEvent(synced.record, from.at));
    case 'pushSettings':
      // One document per device, written by that device: no device speaks for another's save.
      if (synced.id !== from.deviceId) return refuse('a device shares its own settings only');
      // A save dated ahead would stand over every later one the person makes elsewhere.
      return admitted({ ...synced.record, savedAt: clampTime(synced.record.savedAt, from.at) });
  }
}
