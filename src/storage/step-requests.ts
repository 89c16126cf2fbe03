import type { CallRecords, CallsOf } from '../engine/storage-port.ts';
import { ledgerId, type Conversation, type LedgerEntry, type Message, type PausePoint } from '../engine/records/index.ts';
import { byCreation } from './pause-points-repo.ts';
import type { Collect } from './read-only.ts';

/*
 * A step's reads as bare IndexedDB requests on a transaction the caller holds
 * (DexieStorage's loadStep, appendAndLoadStep, settleAndLoadStep): made from
 * an event handler or beside other requests, they cost no round trip of their
 * own, and their results are collected once the transaction has run.
 */

/** One exact-key read per call on the `toolCallId` index, and one `get` per ledger entry, in the given transaction. */
export function callsRequest(transaction: IDBTransaction, conversationId: string, toolCallIds: readonly string[]): Collect<CallRecords> {
  if (toolCallIds.length === 0) return () => ({ pausePoints: [], ledger: [] });
  const byCall = transaction.objectStore('pausePoints').index('toolCallId');
  const ledger = transaction.objectStore('ledger');
  const pauses = toolCallIds.map((id) => byCall.getAll(id) as IDBRequest<PausePoint[]>);
  const entries = toolCallIds.map((id) => ledger.get(ledgerId(conversationId, id)) as IDBRequest<LedgerEntry | undefined>);
  return () => ({
    pausePoints: pauses.flatMap((request) => request.result.filter((p) => p.conversationId === conversationId)).sort(byCreation),
    ledger: entries.map((request) => request.result).filter((entry) => entry !== undefined),
  });
}

/** `callsRequest` for the calls `callsOf` picks; an error of `callsOf` is deferred to the collection, once the transaction (and any writes of it) has committed. */
export function callsAfterWrites(
  transaction: IDBTransaction,
  conversationId: string,
  callsOf: CallsOf,
  tail: readonly Message[],
  conversation: Conversation | undefined,
): Collect<CallRecords> {
  try {
    return callsRequest(transaction, conversationId, callsOf(tail, conversation));
  } catch (error) {
    return () => {
      throw error;
    };
  }
}

/** Every pending pause point, through the `status` index: pending ones are few, however many were decided. */
export function pendingRequest(transaction: IDBTransaction): IDBRequest<PausePoint[]> {
  return transaction.objectStore('pausePoints').index('status').getAll('pending') as IDBRequest<PausePoint[]>;
}
