import type { PausepointDb } from '../../storage/db.ts';

/** Every row of every table, in primary key order: compare two of these to prove nothing changed. */
export async function databaseSnapshot(db: PausepointDb): Promise<Record<string, unknown[]>> {
  const tables = [db.conversations, db.messages, db.pausePoints, db.ledger, db.notes, db.approvalRules, db.settings];
  const rows = await Promise.all(tables.map((table) => table.toArray()));
  return Object.fromEntries(tables.map((table, index) => [table.name, rows[index] ?? []]));
}
