import type { Decision } from '../engine/decision.ts';
import type { ClaimOutcome } from '../engine/devices-port.ts';
import type { DecidedBy, DeviceSignature, PausePoint } from '../engine/records/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { CouchError } from './couch/couch-error.ts';
import { decisionOf } from './decision-of.ts';
import type { RemoteDecision } from '../storage/records/sync-records.ts';
import { recordHash } from './record-hash.ts';
import type { SyncContext } from './sync-context.ts';
import { syncKey, type DecisionClaim, type SyncDocument } from './sync-document.ts';

type Sent = { outcome: 'won' } | { outcome: 'lost'; decision: Decision; decidedBy: DecidedBy; signature?: DeviceSignature } | { outcome: 'queued'; error: CouchError };

/**
 * Claims a decision on the server: a document created once per card,
 * without a `_rev`, so the server takes exactly one. Whatever the answer
 * (201, 202 or 409), the document is then read back with `conflicts=true`,
 * and the revision the server returns, the same on every node once they
 * agree, is the winner: a multi-node cluster can answer 201 on one node while
 * another node took another device's create, and keeps both as a conflict.
 * This claim is won only when the revision read back is its own and no
 * conflict is stored beside it. A server that cannot be reached keeps the
 * claim queued here.
 * Every claim is recorded (`remoteDecisions`), for the card to say what it came to.
 */
export async function claimDecision(ctx: SyncContext, pausePoint: PausePoint, decision: Decision, decidedBy: DecidedBy, signature?: DeviceSignature): Promise<ClaimOutcome> {
  const signed = signature ? { deviceSignature: signature } : {};
  const claim: DecisionClaim = { pausePointId: pausePoint.id, conversationId: pausePoint.conversationId, decision, decidedBy, ...signed };
  const record: RemoteDecision = { v: 1, pausePointId: pausePoint.id, conversationId: pausePoint.conversationId, state: 'queued', decision, decidedBy, at: ctx.now(), ...signed };
  const sent = await sendClaim(ctx, claim);
  await ctx.db.remoteDecisions.put(recorded(record, sent));
  return sent.outcome === 'queued' ? { outcome: 'queued' } : sent;
}

/**
 * Sends the claims still queued here (made while the server was out of
 * reach), and queues claims for decisions made here without one: a card of a
 * conversation this device runs that was decided from a notification. A
 * claim that loses now changes nothing where it was applied already (the
 * owner acted on it), and the other device's card says so.
 */
export async function flushClaims(ctx: SyncContext): Promise<{ sent: number; error?: CouchError }> {
  await queueUnclaimed(ctx);
  let sent = 0;
  for (const queued of await ctx.db.remoteDecisions.where('state').equals('queued').toArray()) {
    const result = await sendClaim(ctx, queued);
    if (result.outcome === 'queued') return { sent, error: result.error };
    await ctx.db.remoteDecisions.put(recorded(queued, result));
    sent++;
  }
  return { sent };
}

/**
 * After a rotation of the data key: this device's claims that the owner has
 * not applied yet go again, under the new key. The owner, already on the new
 * key, takes a claim sealed under the old one as superseded and never counts
 * it, so a claim made here before this device saw the rotation would say
 * `won` while the card waits for ever. "Not applied" is the card as this
 * device holds it: still pending (the owner writes it resolved once it
 * applies a decision). Sent again, the claim is queued (`Waiting for the sync
 * server`) until the server answers under the new key's id: 201 and this
 * decision is the one, 409 and another device's claim under the new key was
 * first. The owner's compare-and-set applies a claim to a pending card only,
 * so a claim it did apply before rotating, sent again, changes nothing.
 * Runs inside the rotation's transaction (sync-store.ts `storeRotatedVault`).
 */
export async function requeueUnapplied(db: PausepointDb): Promise<void> {
  const won = await db.remoteDecisions.where('state').equals('won').toArray();
  if (won.length === 0) return;
  const cards = await db.pausePoints.bulkGet(won.map((claim) => claim.pausePointId));
  const waiting = won.filter((_, i) => cards[i]?.status === 'pending');
  await db.remoteDecisions.bulkPut(waiting.map((claim) => ({ ...claim, state: 'queued' as const })));
}

function recorded(record: RemoteDecision, sent: Sent): RemoteDecision {
  if (sent.outcome === 'won') return { ...record, state: 'won' };
  if (sent.outcome === 'lost') {
    return { ...record, state: 'lost', winner: { decision: sent.decision, decidedBy: sent.decidedBy, ...(sent.signature ? { deviceSignature: sent.signature } : {}) } };
  }
  return { ...record, state: 'queued' };
}

async function sendClaim(ctx: SyncContext, claim: DecisionClaim): Promise<Sent> {
  const { pausePointId, conversationId, decision, decidedBy, deviceSignature } = claim;
  const record: DecisionClaim = { pausePointId, conversationId, decision, decidedBy, ...(deviceSignature ? { deviceSignature } : {}) };
  const doc: SyncDocument = { v: 1, kind: 'decision', id: pausePointId, n: 1, from: ctx.device.id, record };
  try {
    const sealed = await ctx.sealed.seal(doc);
    const created = await ctx.client.createDocument(sealed._id, { e: sealed.e });
    if (created.outcome === 'created') await ctx.db.syncDocs.put({ key: syncKey('decision', pausePointId), docId: sealed._id, rev: created.rev, n: 1, hash: recordHash(doc.record) });
    // Every answer, a 201 too: a 201 says one node took this create, not that no other node took another's.
    const current = await ctx.client.getDocument(sealed._id, { conflicts: true });
    if (!current) throw new CouchError('bad_response', { message: 'The sync server lost a decision it had just taken.' });
    const winner = await ctx.sealed.open(current);
    if (winner.kind !== 'decision') throw new CouchError('bad_response', { message: 'The sync server holds something else under a decision’s id.' });
    if (winner.from === ctx.device.id && winner.record.decidedBy.tabId === decidedBy.tabId && (current._conflicts ?? []).length === 0) return { outcome: 'won' };
    const { deviceSignature: signature } = winner.record;
    return { outcome: 'lost', decision: winner.record.decision, decidedBy: winner.record.decidedBy, ...(signature ? { signature } : {}) };
  } catch (error) {
    if (error instanceof CouchError && error.kind !== 'bad_response') return { outcome: 'queued', error };
    throw error;
  }
}

/** Cards of conversations this device runs that a person here decided with no claim made (see `flushClaims`). */
async function queueUnclaimed(ctx: SyncContext): Promise<void> {
  const me = ctx.device.id;
  const resolved = await ctx.db.pausePoints.where('status').equals('resolved').filter((p) => p.decidedBy?.deviceId === me && !p.restored && (p.resolvedAt ?? 0) >= ctx.since).toArray();
  if (resolved.length === 0) return;
  const claimed = await ctx.db.remoteDecisions.bulkGet(resolved.map((p) => p.id));
  const unclaimed = resolved.filter((_, i) => claimed[i] === undefined);
  const conversations = await ctx.db.conversations.bulkGet([...new Set(unclaimed.map((p) => p.conversationId))]);
  const ours = new Set(conversations.filter((c) => c && (c.ownerDevice === undefined || c.ownerDevice.id === me)).map((c) => c!.id));
  const rows: RemoteDecision[] = [];
  for (const pause of unclaimed) {
    const decision = decisionOf(pause);
    if (!decision || !pause.decidedBy || !ours.has(pause.conversationId)) continue;
    const signed = pause.deviceSignature ? { deviceSignature: pause.deviceSignature } : {};
    rows.push({ v: 1, pausePointId: pause.id, conversationId: pause.conversationId, state: 'queued', decision, decidedBy: pause.decidedBy, at: pause.resolvedAt ?? ctx.now(), ...signed });
  }
  await ctx.db.remoteDecisions.bulkPut(rows);
}
