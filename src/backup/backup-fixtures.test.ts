import 'fake-indexeddb/auto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { readSettings } from '../storage/settings-repo.ts';
import { BackupError, type BackupErrorCode } from './backup-error.ts';
import { createBackup } from './create-backup.ts';
import { describeRestore } from './describe-restore.ts';
import { restoreBackup } from './restore-backup.ts';
import { databaseSnapshot } from './testing/database-snapshot.ts';
import { makeConversation, makePausePoint } from '../engine/testing/make-records.ts';
import { INTERRUPTED_FROM_FILE } from '../inert/index.ts';

/**
 * Backup files as earlier versions of the app wrote them, and files that must
 * be refused. The fixtures are history: never edit one to make a change pass.
 */
const FIXTURES = join(import.meta.dirname, '../../tests/fixtures/backup');
const read = (...path: string[]) => readFileSync(join(FIXTURES, ...path), 'utf8');

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

describe('backup format v1 sample', () => {
  const sample = read('v1-sample.json');

  it('restores completely into an empty browser', async () => {
    const result = await restoreBackup(db, sample);
    expect(result).toEqual({
      conversations: 2,
      messages: 9,
      attachments: 0,
      pausePoints: 2,
      ledger: 1,
      notes: 1,
      approvalRules: 0,
      allowRulesOff: 0,
      auditEvents: 0,
      interrupted: 1,
      conversationsKept: 0,
      settings: 'restored',
      apiKeyMissing: true,
      keptStricter: [],
      skippedInBackup: 0,
      stopped: null,
      conversationsLeft: 0,
      bytes: sample.length,
    });
    expect(describeRestore(result)).toBe(
      'Restored 2 conversations (9 messages, 2 approvals), 1 note and your settings. ' +
        '1 conversation was working when the backup was made; nothing runs in it until you press Continue. ' +
        'Backups never hold an API key: enter yours in Settings.',
    );
    // Nothing of a file waits for a decision here (src/inert/): its pending card comes in expired.
    expect(await db.pausePoints.get('8c0e2f4a-5b6d-4e7f-9a1b-2c3d4e5f6a10')).toMatchObject({ status: 'expired', restored: true, title: 'Send the January newsletter?' });
    expect((await db.settings.get('settings'))?.value).toMatchObject({ provider: 'openrouter' });
    expect(await readSettings(db)).toMatchObject({ provider: 'openrouter', apiKey: '' });
  });

  it('is written back as version 3 with no field lost: its cards marked restored, the pending one expired and its conversation interrupted', async () => {
    await restoreBackup(db, sample);
    const again = JSON.parse(await (await createBackup(db)).blob.text());
    const original = JSON.parse(sample);
    expect(again.version).toBe(3);
    const [decided, pending] = original.data.pausePoints;
    const conversations = original.data.conversations.map((c: { state: { kind: string } }) =>
      c.state.kind === 'paused' ? { ...c, state: { kind: 'error', code: 'interrupted', message: INTERRUPTED_FROM_FILE.backup, retryable: true } } : c,
    );
    expect(again.data).toEqual({
      ...original.data,
      conversations,
      pausePoints: [{ ...decided, restored: true }, { ...pending, status: 'expired', expiredReason: 'abandoned', restored: true }],
      approvalRules: [],
      auditEvents: [],
      attachments: [],
    });
  });
});

describe('backup format v2 sample', () => {
  const sample = read('v2-sample.json');

  it('restores completely, with its approval rules granting nothing', async () => {
    const result = await restoreBackup(db, sample);
    expect(result).toMatchObject({ conversations: 2, messages: 9, pausePoints: 2, ledger: 1, notes: 1, approvalRules: 3, allowRulesOff: 1, interrupted: 1 });
    expect(describeRestore(result)).toBe(
      'Restored 2 conversations (9 messages, 2 approvals), 1 note, 3 approval rules and your settings. ' +
        '1 conversation was working when the backup was made; nothing runs in it until you press Continue. ' +
        '1 allow rule came back switched off, as a backup never grants anything by itself: turn it on in Settings if you still want it. ' +
        'Backups never hold an API key: enter yours in Settings.',
    );
    const rules = JSON.parse(sample).data.approvalRules;
    expect(await db.approvalRules.orderBy('id').toArray()).toEqual([
      { ...rules[0], source: 'backup', enabled: false },
      { ...rules[1], source: 'backup', enabled: true },
      // Switched off in the file, on here: a deny rule only restricts.
      { ...rules[2], source: 'backup', enabled: true },
    ]);
  });
});

describe('backup format v3 sample', () => {
  const sample = read('v3-sample.json');

  it('restores its audit events as history, each exactly as the file says, and they set nothing going', async () => {
    const result = await restoreBackup(db, sample);
    expect(result).toMatchObject({ conversations: 2, approvalRules: 3, allowRulesOff: 1, auditEvents: 3, interrupted: 1 });
    const events = JSON.parse(sample).data.auditEvents;
    const stored = await db.auditEvents.toArray();
    for (const event of events) expect(stored).toContainEqual(event);
    // Beside them, the restore's own record of each rule it brought back.
    expect(stored.filter((event) => event.kind === 'rule_restored')).toHaveLength(3);
    // A dry run's rule in an event is history, not a rule: nothing here decides by it.
    expect(await db.approvalRules.get('e4a1b2c3-1111-4a2b-8c3d-000000000f09')).toBeUndefined();
    expect(await db.conversations.toArray()).toEqual(expect.arrayContaining([expect.objectContaining({ state: { kind: 'idle' } })]));
  });

  it('restored twice, writes the events once', async () => {
    await restoreBackup(db, sample);
    expect(await restoreBackup(db, sample)).toMatchObject({ auditEvents: 0 });
  });

  it('a backup made here carries the audit events, and they come back', async () => {
    await restoreBackup(db, sample);
    const events = await db.auditEvents.orderBy('id').toArray();
    const file = JSON.parse(await (await createBackup(db)).blob.text());
    expect(file.version).toBe(3);
    expect(file.data.auditEvents).toEqual(events);
    await db.delete();
    await db.open();
    await restoreBackup(db, JSON.stringify(file));
    const back = await db.auditEvents.toArray();
    for (const event of events) expect(back).toContainEqual(event);
  });
});

/**
 * What each negative fixture must be refused with; every file in invalid/ must
 * be listed here. `here` puts what the browser holds before the restore.
 */
const REFUSALS: Record<string, { code: BackupErrorCode; table?: string; index?: number; message: RegExp; here?: (db: PausepointDb) => Promise<void> }> = {
  'audit-log.json': { code: 'foreign_format', message: /audit log export/ },
  'corrupt-record.json': { code: 'invalid_record', table: 'messages', index: 3, message: /^Record 3 of messages \(id "a1b2c3d4-0000-4000-8000-000000000a03"\) is invalid: role:/ },
  'dangling-ledger-entry.json': { code: 'invalid_record', table: 'ledger', index: 1, message: /cannot be restored: it belongs to conversation "0a0a0a0a-dead-4bad-8bad-0000000000ff", which is not in the backup/ },
  'dangling-message-v1.json': { code: 'invalid_record', table: 'messages', index: 9, message: /^Record 9 of messages \(id "c1b2c3d4-0000-4000-8000-000000000c00"\) cannot be restored: it belongs to conversation "0a0a0a0a-dead-4bad-8bad-0000000000ff", which is not in the backup/ },
  'dangling-pause-point.json': { code: 'invalid_record', table: 'pausePoints', index: 1, message: /which is not in the backup/ },
  'dangling-rule-scope.json': { code: 'invalid_record', table: 'approvalRules', index: 1, message: /which is not in the backup/ },
  'duplicate-id.json': { code: 'invalid_record', table: 'pausePoints', index: 1, message: /repeats the id/ },
  'foreign-format.json': { code: 'foreign_format', message: /its format is "chat-archive"/ },
  // Written as a file "from the future" when this app read version 1 only; version 2 is now
  // current, and a version 2 file without its approvalRules table is damaged.
  'future-version.json': { code: 'invalid_file', message: /damaged: data\.approvalRules/ },
  'corrupt-audit-event.json': { code: 'invalid_record', table: 'auditEvents', index: 1, message: /^Record 1 of auditEvents \(id "ev-v3-dry-run"\) is invalid/ },
  'future-version-4.json': { code: 'future_version', message: /newer version of Pausepoint \(backup version 4; this app reads versions up to 3\)/ },
  // Point 2 of issue 26: a pending card that shows one call while approving it would run another.
  'gate-card-other-arguments.json': {
    code: 'invalid_record',
    table: 'pausePoints',
    index: 0,
    message: /^Record 0 of pausePoints \(id "9a7e0000-0000-4000-8000-0000000000b1"\) cannot be restored: the arguments it shows are not those of its call "call_pay" to http_request, which approving it would run\./,
  },
  'gate-card-other-tool.json': {
    code: 'invalid_record',
    table: 'pausePoints',
    index: 0,
    message: /cannot be restored: it asks about tool "list_notes", but its call "call_pay" is to "http_request"\./,
  },
  'id-taken-here.json': {
    code: 'conflict',
    table: 'pausePoints',
    index: 0,
    message: /^Record 0 of pausePoints \(id "8c0e2f4a-5b6d-4e7f-9a1b-2c3d4e5f6a01"\) has the id of an approval already in this browser, in another conversation/,
    here: async (db) => {
      await db.conversations.put(makeConversation({ id: 'local-conversation', title: 'Here only' }));
      await db.pausePoints.put(makePausePoint({ id: '8c0e2f4a-5b6d-4e7f-9a1b-2c3d4e5f6a01', conversationId: 'local-conversation', status: 'resolved', resolution: 'decline', resolvedAt: 2 }));
    },
  },
  'ledger-id-mismatch.json': {
    code: 'invalid_record',
    table: 'ledger',
    index: 0,
    message: /cannot be restored: its id is not "3f1c9a52-6a0e-4c1b-9d7e-2b8f4e1a7c01:call_Qx81", the id its conversation and tool call give it/,
  },
  'missing-table.json': { code: 'invalid_file', message: /data\.ledger/ },
  'settings-javascript-url.json': { code: 'invalid_record', table: 'settings', message: /settings in this backup are invalid: baseUrl/ },
  'settings-provider-elsewhere.json': {
    code: 'invalid_record',
    table: 'settings',
    message: /^The settings in this backup cannot be restored: they name OpenAI as the provider but its Base URL is https:\/\/api\.openai\.com\.evil\.example\/v1, not https:\/\/api\.openai\.com\/v1\./,
  },
  'truncated.json': { code: 'not_json', message: /not valid JSON, or it was cut off/ },
};

describe('backup files that must be refused', () => {
  const names = readdirSync(join(FIXTURES, 'invalid')).filter((name) => name.endsWith('.json')).sort();

  it('every negative fixture has an expectation', () => {
    expect(names).toEqual(Object.keys(REFUSALS).sort());
  });

  it.each(names)('%s is refused and nothing is written', async (name) => {
    const expected = REFUSALS[name]!;
    // Any write the refused file made would show against this.
    await db.notes.put({ v: 1, id: 'n-here', title: 'Here', body: 'Only here.', createdAt: 1, updatedAt: 1 });
    await db.settings.put({ key: 'settings', value: { v: 1, provider: 'custom', baseUrl: 'https://gateway.example/v1', apiKey: 'sk-here', model: 'm', expiryMinutes: null, notifications: true, badge: true } });
    await expected.here?.(db);
    const before = await databaseSnapshot(db);

    const error = await restoreBackup(db, read('invalid', name)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BackupError);
    expect(error).toMatchObject({ code: expected.code, table: expected.table, index: expected.index });
    expect((error as Error).message).toMatch(expected.message);
    expect((error as Error).message).toMatch(/Nothing was restored\.$/);
    expect(await databaseSnapshot(db)).toEqual(before);
  });
});
