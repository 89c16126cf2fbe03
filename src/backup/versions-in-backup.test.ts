import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeConversation } from '../engine/testing/make-records.ts';
import type { Message, Versions } from '../engine/records/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { createBackup } from './create-backup.ts';
import { restoreBackup } from './restore-backup.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

describe('versions travel in backups', () => {
  it('brings back a conversation’s versions and every message with its branch, through the record schemas', async () => {
    const versions: Versions = { current: 'b1', rootActive: 1, branches: [{ id: 'b1', parent: '', from: 1, active: 2, createdAt: 3_000 }] };
    await db.conversations.put(makeConversation({ id: 'c1', title: 'Facts', nextSeq: 3, versions }));
    const base = { v: 1 as const, conversationId: 'c1', toolCalls: [], turnIndex: 0, status: 'complete' as const, role: 'assistant' as const };
    const messages: Message[] = [
      { v: 1, id: 'm0', conversationId: 'c1', seq: 0, createdAt: 1, role: 'user', content: 'A fact?' },
      { ...base, id: 'm1', seq: 1, createdAt: 2, content: 'Octopuses have three hearts.' },
      { ...base, id: 'm2', seq: 2, createdAt: 3, content: 'Honey never spoils.', branch: 'b1' },
    ];
    await db.messages.bulkPut(messages);
    const text = await (await createBackup(db)).blob.text();

    await db.conversations.clear();
    await db.messages.clear();
    await restoreBackup(db, text);

    expect((await db.conversations.get('c1'))?.versions).toEqual(versions);
    expect(await db.messages.orderBy('id').toArray()).toEqual(messages);
  });
});
