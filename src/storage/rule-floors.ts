import type { PausepointDb } from './db.ts';

/**
 * The settings row a device joining with a pairing link holds until it has
 * every rule event the inviting device had: per device, how many of that
 * device's rule events (numbered from 1, no gap) it must hold
 * (src/sync/rollback-heads.ts). While it is there and unmet, allow rules do
 * not decide here: a server that withholds a removal or a disable written
 * before the pairing cannot make a removed rule decide on the new device.
 */
export const RULE_FLOORS_KEY = 'ruleFloors';

export type RuleFloors = Record<string, number>;

/** Per device, a count of at least 1; undefined for anything else (read as unmet: the safe side). */
export function readRuleFloors(value: unknown): RuleFloors | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const floors: RuleFloors = Object.create(null) as RuleFloors;
  for (const [device, count] of Object.entries(value)) {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return undefined;
    floors[device] = count;
  }
  return floors;
}

/**
 * Whether this device still waits for rule events the pairing link named.
 * In a caller's transaction over `settings` and `ruleEvents`, or its own reads.
 */
export async function rulesHeldBack(db: PausepointDb): Promise<boolean> {
  const row = await db.settings.get(RULE_FLOORS_KEY);
  if (row === undefined) return false;
  const floors = readRuleFloors(row.value);
  if (floors === undefined) return true;
  for (const [device, count] of Object.entries(floors)) {
    // Ids are `<device>:<seq>`, one per number: as many held as the count means every one up to it.
    const held = await db.ruleEvents.where('[device+seq]').between([device, 1], [device, count], true, true).count();
    if (held < count) return true;
  }
  return false;
}

/** Drops the floors once they are met: held events are never lost, so they stay met. In a `rw` transaction over both tables. */
export async function releaseRuleFloors(db: PausepointDb): Promise<void> {
  if ((await db.settings.get(RULE_FLOORS_KEY)) !== undefined && !(await rulesHeldBack(db))) await db.settings.delete(RULE_FLOORS_KEY);
}
