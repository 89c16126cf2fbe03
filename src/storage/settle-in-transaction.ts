import type { Settlement, SettleResult } from '../engine/storage-port.ts';
import type { Conversation, Message, PausePoint } from '../engine/records/index.ts';
import { resolvesPastExpiry } from '../engine/pause-expiry.ts';
import { checkedRule, createRule } from './approval-rules-repo.ts';
import { ruleEvent } from './audit-events-repo.ts';
import type { PausepointDb } from './db.ts';
import { numberDrafts } from './number-drafts.ts';
import { RULE_EVENT_STORES } from './rule-events-repo.ts';
import { byCreation } from './pause-points-repo.ts';
import { StorageError } from './storage-error.ts';

/** The stores `settleInTransaction` reads and writes: the caller's transaction spans them. */
export const SETTLE_STORES = ['pausePoints', 'conversations', 'messages', 'auditEvents', ...RULE_EVENT_STORES] as const;

export interface SettledInTransaction {
  result: SettleResult;
  /** The settlement's writes, made but not awaited: a caller may queue its reads behind them (a transaction's requests run in order). */
  written: Promise<unknown>;
  /**
   * When the settlement committed: its conversation as written and that
   * conversation's pending pause points once it is settled, oldest first —
   * what a step read in the same transaction would find, without reading them again.
   */
  after?: { conversation: Conversation; pending: PausePoint[] };
}

/**
 * The body of `StoragePort.settlePausePoint`, for a caller that holds a `rw`
 * transaction over SETTLE_STORES (and may read on in it: `settleAndLoadStep`).
 * Nothing in here awaits anything but Dexie's requests, so the transaction
 * stays alive; the caller awaits `written` (a failed write aborts the whole transaction).
 */
export async function settleInTransaction(
  db: PausepointDb,
  id: string,
  settle: (pending: PausePoint) => Settlement,
  /** The conversation the caller expects the pause point in: read with the pending ones, in one round trip. */
  expected?: string,
): Promise<SettledInTransaction> {
  const { conversations, messages, pausePoints, auditEvents } = db;
  const nothing: Promise<unknown> = Promise.resolve();
  // Every pending pause point: the count below is taken from them, and a pause point that can still be
  // decided is among them. Only one that is not is read on its own (not found, or decided already).
  const [pendingBefore, guessed] = await Promise.all([
    pausePoints.where('status').equals('pending').toArray(),
    expected === undefined ? undefined : conversations.get(expected),
  ]);
  const current = pendingBefore.find((p) => p.id === id) ?? (await pausePoints.get(id));
  if (!current) return { result: { ok: false, reason: 'not_found' }, written: nothing };
  if (current.status !== 'pending') return { result: { ok: false, reason: 'already_decided', pausePoint: current }, written: nothing };
  // Synchronous on purpose: the decision is made on the state this transaction read.
  const settlement = settle(current);
  if (!settlement.commit) return { result: { ok: false, reason: 'refused', message: settlement.reason, ...(settlement.code ? { code: settlement.code } : {}) }, written: nothing };
  if (settlement.pausePoint.id !== id) {
    throw new StorageError('invalid', `Settling pause point ${id} returned pause point ${settlement.pausePoint.id}.`);
  }
  if (resolvesPastExpiry(current, settlement.pausePoint)) return { result: { ok: false, reason: 'expired', pausePoint: current }, written: nothing };
  const { conversationId } = current;
  // The writes are made now and awaited with the last ones, the conversation read beside them: one round trip.
  const writes: Promise<unknown>[] = [pausePoints.put(settlement.pausePoint)];
  if (settlement.rule) {
    // With the decision or not at all: `Always allow` on a card another tab decided first grants nothing.
    const rule = checkedRule(settlement.rule);
    writes.push(
      createRule(db, rule),
      auditEvents.add(ruleEvent('rule_created', rule, { id: crypto.randomUUID(), at: rule.createdAt, by: settlement.pausePoint.decidedBy })),
    );
  }
  const read = expected === conversationId ? guessed : await conversations.get(conversationId);
  if (!read) throw new StorageError('not_found', `No conversation ${conversationId}.`);
  // The conversation's pending pause points once this one is settled: those read above, this one replaced by its settlement.
  const pending = pendingBefore
    .filter((p) => p.conversationId === conversationId && p.id !== id)
    .concat(settlement.pausePoint.status === 'pending' ? [settlement.pausePoint] : [])
    .sort(byCreation);
  const { update } = settlement;
  let conversation = read;
  let appended: Message[] = [];
  if (settlement.messages.length > 0) {
    const numbered = numberDrafts(read, settlement.messages);
    conversation = numbered.conversation;
    appended = numbered.messages;
    writes.push(messages.bulkAdd(appended));
  }
  if (update) conversation = checkedUpdate(conversation, (c) => update(c, pending.length));
  if (conversation !== read) writes.push(conversations.put(conversation));
  return { result: { ok: true, pausePoint: settlement.pausePoint, messages: appended }, written: Promise.all(writes), after: { conversation, pending } };
}

/** An update written along with messages: it may not move the conversation or its numbering. */
export function checkedUpdate(current: Conversation, update: (current: Conversation) => Conversation): Conversation {
  const next = update(current);
  if (next.id !== current.id || next.nextSeq !== current.nextSeq) {
    throw new StorageError('invalid', `An update of conversation ${current.id} made with its messages changed its id or nextSeq.`);
  }
  return next;
}
