import type { Table, Transaction } from 'dexie';
import type { ApprovalRule, RuleStateEvent } from '../engine/records/index.ts';
import type { SettingRow } from './db.ts';

/** The settings row of this browser's id (settings-repo.ts `deviceId`). */
const DEVICE_ID_KEY = 'deviceId';

/**
 * The upgrade to database version 14: each stored rule becomes the event
 * that made it (`created`, with the state it is in now: on or off, a dry run
 * or not), written by this device, numbered from 1 (ids as rule-state-event.ts
 * `ruleEventId` makes them). Its use here stays on its row. Without zod: the
 * page opens the database at start and does not load zod for that; a row
 * that is not a rule folds back to the same unreadable row, listed and
 * removable, deciding nothing, and no other device takes its event.
 */
export async function rulesToEvents(tx: Transaction): Promise<void> {
  const settings: Table<SettingRow, string> = tx.table('settings');
  const rules: Table<unknown, string> = tx.table('approvalRules');
  const events: Table<RuleStateEvent, string> = tx.table('ruleEvents');
  const stored = (await rules.toArray()).filter(
    (row): row is ApprovalRule => typeof row === 'object' && row !== null && typeof (row as { id?: unknown }).id === 'string' && typeof (row as { createdAt?: unknown }).createdAt === 'number',
  );
  if (stored.length === 0) return;
  const row = await settings.get(DEVICE_ID_KEY);
  let device = typeof row?.value === 'string' && row.value !== '' ? row.value : undefined;
  if (device === undefined) {
    device = crypto.randomUUID();
    await settings.put({ key: DEVICE_ID_KEY, value: device });
  }
  stored.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  await events.bulkAdd(
    stored.map(({ lastUsedAt: _lastUsedAt, uses: _uses, ...rule }, i): RuleStateEvent => {
      const seq = i + 1;
      return { v: 1, id: `${device}:${seq}`, ruleId: rule.id, device, seq, at: rule.createdAt, change: { kind: 'created', rule } };
    }),
  );
}
