import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { ACTIVE_STATES } from '../engine/records/index.ts';
import { makeConversation } from '../engine/testing/make-records.ts';
import { PausepointDb } from './db.ts';

describe('PausepointDb', () => {
  it('finds conversations left active by their state index, and upgrades a version 1 database in place', async () => {
    const name = `pausepoint-test-${crypto.randomUUID()}`;
    const v1 = new Dexie(name);
    v1.version(1).stores({ conversations: 'id, updatedAt', messages: 'id, [conversationId+seq]', pausePoints: 'id, conversationId, status, createdAt, toolCallId', ledger: 'id, conversationId', notes: 'id, updatedAt', settings: 'key' });
    await v1.table('conversations').bulkPut([
      makeConversation({ id: 'idle', state: { kind: 'idle' } }),
      makeConversation({ id: 'running', state: { kind: 'running', owner: 'tab-A', since: 1 } }),
      makeConversation({ id: 'paused', state: { kind: 'paused', pending: 1 } }),
      makeConversation({ id: 'offline', state: { kind: 'waiting_for_network', owner: 'tab-B', since: 1 } }),
    ]);
    v1.close();

    const db = new PausepointDb(name);
    const active = await db.conversations.where('state.kind').anyOf([...ACTIVE_STATES]).primaryKeys();
    expect(active.sort()).toEqual(['offline', 'running']);
    expect(await db.conversations.count()).toBe(4);
    db.close();
    await Dexie.delete(name);
  });
});
