import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import { makeLedgerEntry, makePausePoint } from '../engine/testing/make-records.ts';
import type { PausepointDb } from './db.ts';
import { readRecentCalls } from './recent-calls.ts';
import { useTestDb } from './testing/open-test-db.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

it('lists each call once, newest first, from the ledger and the pause points of gates and rules, without wait_for_approval', async () => {
  await db.ledger.bulkPut([
    makeLedgerEntry({ id: 'c1:ran', conversationId: 'c1', toolCallId: 'ran', toolName: 'transfer', args: { amount: 40 }, startedAt: 3_000 }),
    makeLedgerEntry({ id: 'c1:asked', conversationId: 'c1', toolCallId: 'asked', toolName: 'transfer', args: { amount: 45 }, startedAt: 5_000 }),
    makeLedgerEntry({ id: 'c1:wait', conversationId: 'c1', toolCallId: 'wait', toolName: 'wait_for_approval', args: {}, startedAt: 6_000 }),
  ]);
  await db.pausePoints.bulkPut([
    // Asked first, then ran with edited arguments: listed once, at the card's time, with the arguments it ran with.
    makePausePoint({ id: 'p-asked', conversationId: 'c1', toolCallId: 'asked', toolName: 'transfer', origin: 'gate', payload: { amount: 50 }, createdAt: 4_000 }),
    makePausePoint({ id: 'p-denied', conversationId: 'c2', toolCallId: 'denied', toolName: 'delete_note', origin: 'rule', payload: { id: 'n1' }, createdAt: 7_000 }),
    makePausePoint({ id: 'p-model', conversationId: 'c2', toolCallId: 'w2', toolName: 'wait_for_approval', origin: 'model', createdAt: 8_000 }),
  ]);
  await db.ledger.put({ id: 'broken' } as never);

  expect(await readRecentCalls(db, 10)).toEqual([
    { at: 7_000, conversationId: 'c2', toolCallId: 'denied', toolName: 'delete_note', args: { id: 'n1' } },
    { at: 4_000, conversationId: 'c1', toolCallId: 'asked', toolName: 'transfer', args: { amount: 45 } },
    { at: 3_000, conversationId: 'c1', toolCallId: 'ran', toolName: 'transfer', args: { amount: 40 } },
  ]);
  expect((await readRecentCalls(db, 2)).map((call) => call.toolCallId)).toEqual(['denied', 'asked']);
});
