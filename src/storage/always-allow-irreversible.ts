import { liveQuery, type Observable } from 'dexie';
import type { PausepointDb } from './db.ts';

/**
 * Whether a card offers "Always allow" for a call its tool marks irreversible.
 * Its own settings row, like "Ask for everything", and off unless turned on:
 * an unreadable row counts as off. Checked by hand rather than with zod
 * because every card reads it, and zod stays out of the page's start-up.
 */
export const ALWAYS_ALLOW_IRREVERSIBLE_KEY = 'offerAlwaysAllowIrreversible';

export function liveAlwaysAllowIrreversible(db: PausepointDb): Observable<boolean> {
  return liveQuery(async () => isOn((await db.settings.get(ALWAYS_ALLOW_IRREVERSIBLE_KEY))?.value));
}

/** `{ v: 1, on: true }` and nothing else turns it on. */
export function isOn(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as { v?: unknown; on?: unknown };
  return row.v === 1 && row.on === true;
}
