import { describeRule } from '../engine/describe-rule.ts';
import type { ApprovalRule, DecidedBy, RuleEvent, RuleEventKind } from '../engine/records/index.ts';
import type { PausepointDb } from './db.ts';

/** How an audit event gets its id and time where no engine clock is at hand (the worker's storage, a restore). */
export interface EventStamp {
  newId: () => string;
  now: () => number;
}

export const SYSTEM_STAMP: EventStamp = { newId: () => crypto.randomUUID(), now: () => Date.now() };

/** The audit event of a change to a rule: the rule as it is after the change (before it, for a removal), in words too. */
export function ruleEvent(kind: RuleEventKind, rule: ApprovalRule, { id, at, by }: { id: string; at: number; by?: DecidedBy }): RuleEvent {
  return { v: 1, id, at, kind, rule, ruleText: describeRule(rule), ...(by ? { by } : {}) };
}

/**
 * Audit events with `(at, id)` after `after` (exclusive) and up to `upTo`
 * (inclusive), oldest first, at most `limit`: keyset paging over the
 * `[at+id]` index, so every page costs the same. Rows are returned as stored,
 * unchecked: the export validates each one and lists what it cannot read.
 */
export async function readAuditEvents(
  db: PausepointDb,
  { after, upTo, limit }: { after?: readonly [number, string]; upTo?: readonly [number, string]; limit: number },
): Promise<unknown[]> {
  const lower = after ? [...after] : [-Infinity, ''];
  const upper = upTo ? [...upTo] : [Infinity, ''];
  return db.auditEvents.where('[at+id]').between(lower, upper, after === undefined, upTo !== undefined).limit(limit).toArray();
}
