import Dexie from 'dexie';
import { foldRuleEvents } from '../engine/fold-rule-events.ts';
import { ApprovalRule, ruleEventId, type RuleStateChange, type RuleStateEvent } from '../engine/records/index.ts';
import type { PausepointDb } from './db.ts';
import { deviceIdIn } from './settings-repo.ts';

/** The stores a rule change writes in: its event, the folded rule, and this device's id (the event's writer). */
export const RULE_EVENT_STORES = ['ruleEvents', 'approvalRules', 'settings'] as const;

/**
 * Writes a rule event of this device's, numbered after its last one, and
 * folds the rule again. Only in a caller's `rw` transaction over
 * RULE_EVENT_STORES (and awaiting nothing but Dexie), so the number is taken
 * and the rule folded on what that transaction read: two tabs never number
 * two events alike.
 */
export async function appendRuleEvent(db: PausepointDb, ruleId: string, change: RuleStateChange, at: number): Promise<RuleStateEvent> {
  const device = await deviceIdIn(db);
  if (change.kind !== 'created') await adoptStoredRules(db, [ruleId]);
  return addEvent(db, device, ruleId, change, at);
}

async function addEvent(db: PausepointDb, device: string, ruleId: string, change: RuleStateChange, at: number): Promise<RuleStateEvent> {
  const last = await db.ruleEvents.where('[device+seq]').between([device, Dexie.minKey], [device, Dexie.maxKey]).last();
  const seq = (last?.seq ?? 0) + 1;
  const event: RuleStateEvent = { v: 1, id: ruleEventId(device, seq), ruleId, device, seq, at, change };
  await db.ruleEvents.add(event);
  await refoldRules(db, [ruleId]);
  return event;
}

/**
 * The `approvalRules` rows of these rules made again from their events (what
 * the engine reads): written when the fold says the rule is, deleted when it
 * says it is not. This device's use of a rule (`uses`, `lastUsedAt`) stays as
 * it was: it is this device's, outside what decides. Only in a caller's `rw`
 * transaction over `ruleEvents` and `approvalRules`.
 */
export async function refoldRules(db: PausepointDb, ruleIds: Iterable<string>): Promise<void> {
  for (const ruleId of new Set(ruleIds)) {
    const [events, row] = await Promise.all([db.ruleEvents.where('ruleId').equals(ruleId).toArray(), db.approvalRules.get(ruleId)]);
    const folded = foldRuleEvents(events);
    if (folded === undefined) {
      if (row !== undefined) await db.approvalRules.delete(ruleId);
      continue;
    }
    const usage = usageOf(row);
    await db.approvalRules.put({ ...folded, lastUsedAt: usage.lastUsedAt, ...(usage.uses === undefined ? {} : { uses: usage.uses }) });
  }
}

/**
 * Rules stored before rule events (database version 13 and earlier) made
 * into the events that made them: `created`, in the state each is in now (on
 * or off, a dry run or not), written by this device; their use stays on their
 * rows. Done when such a rule is first changed or synced, in the worker, not
 * as the database's upgrade: the page opens the database at start and has no
 * room for the code. A row the schema cannot read stays as it is, listed as
 * unreadable and removable, deciding nothing. All stored rules when `ruleIds`
 * is not given. Only in a caller's `rw` transaction over RULE_EVENT_STORES.
 */
export async function adoptStoredRules(db: PausepointDb, ruleIds?: readonly string[]): Promise<void> {
  const rows: unknown[] = ruleIds ? await db.approvalRules.bulkGet([...ruleIds]) : await db.approvalRules.toArray();
  const stored = rows.flatMap((row) => {
    const parsed = ApprovalRule.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
  if (stored.length === 0) return;
  const made = new Set((await db.ruleEvents.where('ruleId').anyOf(stored.map((rule) => rule.id)).toArray()).map((event) => event.ruleId));
  const unmade = stored.filter((rule) => !made.has(rule.id)).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  if (unmade.length === 0) return;
  const device = await deviceIdIn(db);
  for (const { lastUsedAt: _lastUsedAt, uses: _uses, ...rule } of unmade) await addEvent(db, device, rule.id, { kind: 'created', rule }, rule.createdAt);
}

/** The ids of the disables of a rule this device holds: what an enable pressed here undoes. */
export async function disablesOf(db: PausepointDb, ruleId: string): Promise<string[]> {
  const events = await db.ruleEvents.where('ruleId').equals(ruleId).toArray();
  return events.filter((e) => e.change.kind === 'disabled').map((e) => e.id);
}

/** Whether any event names this rule: an id once used is never made again (its removal is final). */
export async function hasRuleEvents(db: PausepointDb, ruleId: string): Promise<boolean> {
  return (await db.ruleEvents.where('ruleId').equals(ruleId).count()) > 0;
}

/** A stored row's use, read defensively: the row may be one the schema no longer reads. */
function usageOf(row: ApprovalRule | undefined): { lastUsedAt: number | null; uses?: number } {
  const lastUsedAt = typeof row?.lastUsedAt === 'number' ? row.lastUsedAt : null;
  const uses = typeof row?.uses === 'number' && Number.isInteger(row.uses) && row.uses >= 0 ? row.uses : undefined;
  return { lastUsedAt, uses };
}
