import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeConversation } from '../engine/testing/make-records.ts';
import type { PausepointDb } from '../storage/db.ts';
import { readSettings, saveSettings } from '../storage/settings-repo.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { createBackup } from './create-backup.ts';
import { restoreBackup } from './restore-backup.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

describe('custom instructions travel in backups', () => {
  it('brings back Settings’ custom instructions and a conversation’s own', async () => {
    await saveSettings(db, { provider: 'demo', baseUrl: 'https://demo.pausepoint.invalid/v1', apiKey: '', model: 'demo', customInstructions: 'Answer in French.' });
    await db.conversations.put(makeConversation({ id: 'c1', title: 'Trip', instructions: 'Be brief.' }));
    const text = await (await createBackup(db)).blob.text();
    expect(JSON.parse(text)).toMatchObject({ data: { settings: { customInstructions: 'Answer in French.' }, conversations: [{ id: 'c1', instructions: 'Be brief.' }] } });

    await db.conversations.clear();
    await db.settings.clear();
    await restoreBackup(db, text);

    expect((await db.conversations.get('c1'))?.instructions).toBe('Be brief.');
    expect((await readSettings(db))?.customInstructions).toBe('Answer in French.');
  });
});
