import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { readSettings } from '../storage/settings-repo.ts';
import { StorageError } from '../storage/storage-error.ts';
import { restoreBackup } from './restore-backup.ts';
import { databaseSnapshot } from './testing/database-snapshot.ts';
import { backupText, refusal, wipeData } from './testing/restore-test-helpers.ts';
import { SEED_API_KEY, seedDatabase } from './testing/seed-database.ts';

// Restores that are refused, or fail part way: each changes nothing, and says why.
let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

describe('restoreBackup: refused files change nothing', () => {
  let text: string;
  let before: Record<string, unknown[]>;
  beforeEach(async () => {
    await seedDatabase(db);
    text = await backupText(db);
    // A database that differs from the backup, so a partial write would show.
    await wipeData(db);
    await db.notes.put({ v: 1, id: 'n-here', title: 'Here', body: 'Only here.', createdAt: 1, updatedAt: 1 });
    before = await databaseSnapshot(db);
  });
  afterEach(async () => {
    expect(await databaseSnapshot(db)).toEqual(before);
  });

  it('refuses text that is not JSON', async () => {
    const error = await refusal(db, '<html>Not found</html>');
    expect(error.code).toBe('not_json');
    expect(error.message).toMatch(/^This file is not a readable backup: it is not valid JSON, or it was cut off .*Nothing was restored\.$/);
  });

  it('refuses a truncated file', async () => {
    expect((await refusal(db, text.slice(0, Math.floor(text.length * 0.7)))).code).toBe('not_json');
  });

  it('refuses another format', async () => {
    const error = await refusal(db, JSON.stringify({ format: 'something.else', version: 1 }));
    expect(error).toMatchObject({ code: 'foreign_format', message: 'This file is not a Pausepoint backup: its format is "something.else". Nothing was restored.' });
    expect((await refusal(db, '[1,2,3]')).message).toBe('This file is not a Pausepoint backup: it has no "format" field. Nothing was restored.');
  });

  it('refuses a future version', async () => {
    const future = JSON.parse(text);
    future.version = 4;
    expect(await refusal(db, JSON.stringify(future))).toMatchObject({
      code: 'future_version',
      message: 'This backup was made by a newer version of Pausepoint (backup version 4; this app reads versions up to 3). Update Pausepoint, then restore it. Nothing was restored.',
    });
  });

  it('refuses a file with one invalid record anywhere, naming its table and index', async () => {
    const file = JSON.parse(text);
    file.data.ledger[0].attempts = 0;
    const error = await refusal(db, JSON.stringify(file));
    expect(error).toMatchObject({ code: 'invalid_record', table: 'ledger', index: 0 });
    expect(error.message).toBe('Record 0 of ledger (id "c2:call_2") is invalid: attempts: Too small: expected number to be >0. Nothing was restored.');
  });

  // A backup lists a conversation's messages together, and they are set aside as one row per conversation and batch
  // (restore-staging.ts): a repeat is caught inside one conversation's run, across conversations and across batches.
  it.each([
    ['in its own conversation’s run', (messages: unknown[]) => messages.splice(2, 0, messages[1]), 2],
    ['in another conversation', (messages: unknown[]) => messages.push({ ...(messages[1] as object), conversationId: 'c2' }), 6],
    ['with the same message last', (messages: unknown[]) => messages.push(messages[1]), 6],
  ])('refuses a message id repeated %s, naming the repeat', async (_, repeat, index) => {
    const file = JSON.parse(text);
    repeat(file.data.messages);
    expect(await refusal(db, JSON.stringify(file))).toMatchObject({ code: 'invalid_record', table: 'messages', index, message: expect.stringContaining(`Record ${index} of messages repeats the id "c1-m0001"`) });
  });

  it('refuses an id repeated in another table', async () => {
    const file = JSON.parse(text);
    file.data.pausePoints.push(file.data.pausePoints[0]);
    expect(await refusal(db, JSON.stringify(file))).toMatchObject({ code: 'invalid_record', table: 'pausePoints', index: 2 });
  });

  it('refuses a broken structure', async () => {
    const file = JSON.parse(text);
    file.data.conversations = 'none';
    expect(await refusal(db, JSON.stringify(file))).toMatchObject({ code: 'invalid_file', message: expect.stringContaining('data.conversations') });
  });
});

describe('restoreBackup: a repeat far from its first', () => {
  it('refuses a message id repeated in a later batch, naming the repeat, and writes nothing', async () => {
    await seedDatabase(db, { messagesPerConversation: 300 });
    const file = JSON.parse(await backupText(db));
    await wipeData(db);
    const before = await databaseSnapshot(db);
    // Past the first batch of records set aside (500): the first is in the staging database by then.
    file.data.messages.push(file.data.messages[1]);
    expect(await refusal(db, JSON.stringify(file))).toMatchObject({ code: 'invalid_record', table: 'messages', index: 600, message: expect.stringContaining('repeats the id "c1-m0001"') });
    expect(await databaseSnapshot(db)).toEqual(before);
  });
});

describe('restoreBackup: out of space', () => {
  it('aborts the whole restore with a clear message and writes nothing', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    await wipeData(db);
    const before = await databaseSnapshot(db);
    let writes = 0;
    db.messages.hook('creating', () => {
      if (++writes === 4) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });

    const error = await restoreBackup(db, text).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'quota_exceeded', message: expect.stringMatching(/out of storage space\. Nothing from this change was saved/) });
    expect(writes).toBeGreaterThanOrEqual(4);
    // Conversations were written before the messages failed: the abort took them back too.
    expect(await databaseSnapshot(db)).toEqual(before);
    expect(await readSettings(db)).toMatchObject({ apiKey: SEED_API_KEY });
  });
});
