import type { Incoming } from './apply-documents.ts';
import type { SyncContext } from './sync-context.ts';
import { syncKey, type DecisionClaim } from './sync-document.ts';

/**
 * The decisions another device claimed for cards of conversations this
 * device runs, found in an opened page before the page is applied: the owner
 * hands them to the engine first, so a person's press on the phone continues
 * the run here without waiting for the rest of the page's transaction (eleven
 * tables, often tens of milliseconds; the claim is what the person waits on).
 *
 * The same claims, by the same rules, that `applyDocuments` reports in
 * `claims`: not this device's own, not an old revision, its card's own id,
 * decided on the device that sealed it (not a removed one), for a
 * conversation this device runs. Applying a claim is the engine's
 * compare-and-set, so one applied here and read again after a cut (the
 * checkpoint moves only once the page is applied) changes nothing.
 */
export async function claimsFirst(ctx: SyncContext, incoming: readonly Incoming[]): Promise<DecisionClaim[]> {
  const me = ctx.device.id;
  const candidates = incoming.flatMap(({ doc }) =>
    doc.kind === 'decision' && doc.from !== me && doc.record.pausePointId === doc.id && doc.record.decidedBy.deviceId === doc.from ? [doc] : [],
  );
  if (candidates.length === 0) return [];
  const { db } = ctx;
  const [states, conversations, devices] = await db.transaction('r', [db.syncDocs, db.conversations, db.syncDevices], () =>
    Promise.all([
      db.syncDocs.bulkGet(candidates.map((doc) => syncKey(doc.kind, doc.id))),
      db.conversations.bulkGet([...new Set(candidates.map((doc) => doc.record.conversationId))]),
      db.syncDevices.toArray(),
    ]),
  );
  const removed = new Set(devices.filter((d) => d.removed).map((d) => d.id));
  const here = new Set(conversations.flatMap((c) => (c && (c.ownerDevice === undefined || c.ownerDevice.id === me) ? [c.id] : [])));
  return candidates.flatMap((doc, i) => {
    const state = states[i];
    if ((state && doc.n <= state.n) || removed.has(doc.from) || !here.has(doc.record.conversationId)) return [];
    return [doc.record];
  });
}
