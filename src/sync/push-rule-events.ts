import { adoptStoredRules, RULE_EVENT_STORES } from '../storage/rule-events-repo.ts';
import type { SyncDocState } from '../storage/records/sync-records.ts';
import { recordHash } from './record-hash.ts';
import type { SyncContext } from './sync-context.ts';
import { syncKey, type SyncDocument } from './sync-document.ts';
import type { PushResult } from './push-changes.ts';

/** Documents per `_bulk_docs` request, as push-changes.ts sends them. */
const BATCH = 200;

/**
 * Pushes the rule events this device holds that the server has not been
 * seen to hold (no `syncDocs` row: neither pushed from here nor read from
 * there), each as a document created once, without `_rev`: nothing
 * overwrites an event, and a `409` only says another device put the same
 * event there first. Any device pushes any event it holds, not only its own:
 * after a rotation, the events of a device that is gone (a removal it wrote
 * included) reach the new key's documents through those that stay. A rule's
 * use is no event: using a rule pushes nothing.
 */
export async function pushRuleEvents(ctx: SyncContext): Promise<PushResult> {
  const { db } = ctx;
  // Rules stored before rule events go as the events that made them.
  await db.transaction('rw', [...RULE_EVENT_STORES], () => adoptStoredRules(db));
  const events = await db.ruleEvents.toArray();
  const states = await db.syncDocs.bulkGet(events.map((event) => syncKey('ruleEvent', event.id)));
  const unsent = events.filter((_, i) => states[i] === undefined);
  let pushed = 0;
  for (let start = 0; start < unsent.length; start += BATCH) {
    const batch = await Promise.all(
      unsent.slice(start, start + BATCH).map(async (record) => {
        const doc: SyncDocument = { v: 1, kind: 'ruleEvent', id: record.id, n: 1, from: ctx.device.id, record };
        return { record, body: await ctx.sealed.seal(doc) };
      }),
    );
    const results = await ctx.client.bulkDocs(batch.map((b) => b.body));
    const written: SyncDocState[] = [];
    for (const [i, { record, body }] of batch.entries()) {
      const result = results[i];
      const there = result?.rev && !result.error ? result.rev : result?.error === 'conflict' ? undefined : null;
      if (there === null) continue;
      written.push({ key: syncKey('ruleEvent', record.id), docId: body._id, ...(there ? { rev: there } : {}), n: 1, hash: recordHash(record) });
      if (there) pushed++;
    }
    await db.syncDocs.bulkPut(written);
  }
  return { pushed, conflicts: 0 };
}
