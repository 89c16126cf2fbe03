import 'fake-indexeddb/auto';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { openTestDb, useTestDb } from '../storage/testing/open-test-db.ts';
import { putRule, removeRule } from '../storage/approval-rules-repo.ts';
import { readSettings, saveSettings } from '../storage/settings-repo.ts';
import { describeRestore } from './describe-restore.ts';
import { restoreBackup, type RestoreProgress } from './restore-backup.ts';
import { databaseSnapshot } from './testing/database-snapshot.ts';
import { backupText, refusal, wipeData } from './testing/restore-test-helpers.ts';
import { SEED_ALLOW_RULE, SEED_DENY_RULE, SEED_DEVICE_ID, seedDatabase } from './testing/seed-database.ts';
import type { Conversation, ConversationState, LedgerEntry, PausePoint } from '../engine/records/index.ts';
import { INTERRUPTED_FROM_FILE } from '../inert/index.ts';

const INTERRUPTED: ConversationState = { kind: 'error', code: 'interrupted', message: INTERRUPTED_FROM_FILE.backup, retryable: true };

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

/**
 * The seeded database as a restore of its backup brings it back, through the
 * inert path (src/inert/): the same, but every card is marked as restored, the
 * pending one expired (nothing of a file waits for a decision) and so its
 * paused conversation interrupted; the seed's cards and ledger entry name calls
 * that no message of the file makes, so they come back tied to no call (a call
 * id that names nothing); and the rules are marked as from a backup with the
 * allow rule switched off.
 */
const UNLINKED = expect.stringMatching(/^call_[0-9a-f-]{36}$/);
function asRestored(snapshot: Record<string, unknown[]>): Record<string, unknown[]> {
  return {
    ...snapshot,
    conversations: (snapshot.conversations as Conversation[]).map((c) => (c.state.kind === 'paused' ? { ...c, state: INTERRUPTED } : c)),
    pausePoints: (snapshot.pausePoints as PausePoint[]).map((p) =>
      p.status === 'pending' ? { ...p, status: 'expired', expiredReason: 'abandoned', restored: true, toolCallId: UNLINKED } : { ...p, restored: true, toolCallId: UNLINKED },
    ),
    ledger: (snapshot.ledger as LedgerEntry[]).map((e) => ({ ...e, id: expect.stringMatching(new RegExp(`^${e.conversationId}:call_[0-9a-f-]{36}$`)), toolCallId: UNLINKED })),
    approvalRules: [
      { ...SEED_ALLOW_RULE, source: 'backup', enabled: false },
      { ...SEED_DENY_RULE, source: 'backup' },
    ],
  };
}

describe('restoreBackup: round trip', () => {
  it('backup, wipe, restore gives back identical data', async () => {
    await seedDatabase(db, { messagesPerConversation: 12 });
    const before = await databaseSnapshot(db);
    const text = await backupText(db);
    await wipeData(db);

    const result = await restoreBackup(db, text);

    expect(await databaseSnapshot(db)).toEqual(asRestored(before));
    expect(result).toEqual({
      conversations: 2,
      messages: 24,
      attachments: 0,
      pausePoints: 2,
      ledger: 1,
      notes: 1,
      approvalRules: 2,
      allowRulesOff: 1,
      auditEvents: 0,
      interrupted: 1,
      conversationsKept: 0,
      settings: 'unchanged',
      apiKeyMissing: false,
      keptStricter: [],
      skippedInBackup: 0,
      stopped: null,
      conversationsLeft: 0,
      bytes: text.length,
    });
    expect(describeRestore(result)).toBe(
      'Restored 2 conversations (24 messages, 2 approvals), 1 note and 2 approval rules. ' +
        '1 conversation was working when the backup was made; nothing runs in it until you press Continue. ' +
        '1 allow rule came back switched off, as a backup never grants anything by itself: turn it on in Settings if you still want it.',
    );
  });

  it('carries usage (per answer and per conversation) and the limits and prices through a backup', async () => {
    await seedDatabase(db, { messagesPerConversation: 4 });
    const usage = { model: 'gpt-4o-mini', prompt: 900, completion: 30, cached: 512, reasoning: 0 };
    const [first] = await db.messages.toArray();
    const answer = { v: 1 as const, id: first!.id, conversationId: first!.conversationId, seq: first!.seq, createdAt: first!.createdAt, role: 'assistant' as const, content: 'ok', toolCalls: [], turnIndex: 0, status: 'complete' as const, usage };
    await db.messages.put(answer);
    await db.conversations.update(answer!.conversationId, { usage: [{ ...usage, calls: 1 }] });
    const current = await readSettings(db);
    await saveSettings(db, { ...current!, tokenLimit: 20_000, prices: [{ model: 'gpt-4o-mini', input: 0.15, output: 0.6 }] });
    const text = await backupText(db);
    await wipeData(db);
    await db.settings.clear();

    await restoreBackup(db, text);
    expect((await db.messages.get(answer!.id))).toMatchObject({ usage });
    expect((await db.conversations.get(answer!.conversationId))?.usage).toEqual([{ ...usage, calls: 1 }]);
    expect(await readSettings(db)).toMatchObject({ tokenLimit: 20_000, prices: [{ model: 'gpt-4o-mini', input: 0.15, output: 0.6 }] });
  });

  it('restores into an empty browser without an API key, and says one is needed', async () => {
    await seedDatabase(db);
    const before = await databaseSnapshot(db);
    const text = await backupText(db);
    // Another browser: a database of its own.
    const other = await openTestDb();
    onTestFinished(other.cleanup);

    const result = await restoreBackup(other.db, text);

    const after = await databaseSnapshot(other.db);
    const { settings: settingsBefore, ...dataBefore } = asRestored(before);
    const { settings: settingsAfter, ...dataAfter } = after;
    expect(dataAfter).toEqual(dataBefore);
    const original = settingsBefore!.find((row) => (row as { key: string }).key === 'settings') as { value: object };
    // This browser's id comes with the rules: each comes back as the event that makes it, written by this browser.
    expect(settingsAfter!.filter((row) => (row as { key: string }).key !== 'deviceId')).toEqual([{ key: 'settings', value: original.value }]);
    expect(result).toMatchObject({ settings: 'restored', apiKeyMissing: true });
    expect(describeRestore(result)).toBe(
      'Restored 2 conversations (6 messages, 2 approvals), 1 note, 2 approval rules and your settings. ' +
        '1 conversation was working when the backup was made; nothing runs in it until you press Continue. ' +
        '1 allow rule came back switched off, as a backup never grants anything by itself: turn it on in Settings if you still want it. ' +
        'Backups never hold an API key: enter yours in Settings.',
    );
  });

  it('keeps the current API key when the endpoint is the same', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    await saveSettings(db, { provider: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-newer-key', model: 'gpt-4.1', expiryMinutes: 30, notifications: false, badge: true });
    const keys = await db.settings.get('apiKeys');

    const result = await restoreBackup(db, text);

    expect(result.settings).toBe('restored');
    expect(result.apiKeyMissing).toBe(false);
    expect((await db.settings.get('settings'))?.value).toEqual({
      v: 1,
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      expiryMinutes: null,
      notifications: true,
      badge: false,
    });
    expect(await db.settings.get('apiKeys')).toEqual(keys);
    expect(await readSettings(db)).toMatchObject({ apiKey: 'sk-newer-key' });
  });

  it('says a key is needed only when none is saved for the restored endpoint’s origin', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    const other = await openTestDb();
    onTestFinished(other.cleanup);
    await other.db.settings.put({ key: 'apiKeys', value: { v: 1, keys: { 'https://api.openai.com': 'sk-here-already' } } });

    expect(await restoreBackup(other.db, text)).toMatchObject({ settings: 'restored', apiKeyMissing: false });
    expect(await readSettings(other.db)).toMatchObject({ provider: 'openai', apiKey: 'sk-here-already' });
  });

  it('keeps current settings for another endpoint: the key is never sent to the backup’s server', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    const current = { v: 1, provider: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: 'local-key', model: 'llama3', expiryMinutes: null, notifications: true, badge: true };
    await db.settings.put({ key: 'settings', value: current });

    const result = await restoreBackup(db, text);

    expect(result.settings).toBe('kept_current');
    expect((await db.settings.get('settings'))?.value).toEqual(current);
    expect(describeRestore(result)).toContain('Your current settings use a different endpoint, so they were kept.');
  });

  it('never writes the device id, and never takes a key from the file', async () => {
    await seedDatabase(db);
    const file = JSON.parse(await backupText(db));
    file.data.settings.apiKey = 'sk-smuggled-in-a-file';
    await db.settings.delete('settings');

    await restoreBackup(db, JSON.stringify(file));

    expect((await db.settings.get('settings'))?.value).not.toHaveProperty('apiKey');
    expect(JSON.stringify(await db.settings.toArray())).not.toContain('sk-smuggled-in-a-file');
    expect((await db.settings.get('deviceId'))?.value).toBe(SEED_DEVICE_ID);
  });
});

describe('point 11: restore keeps the stricter limits and prices', () => {
  /** This browser's bounds, on the backup's endpoint. */
  const HERE = { v: 1, provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', expiryMinutes: null, notifications: true, badge: false,
    tokenLimit: 50_000, costLimit: 2, dailyCostLimit: 5, maxTokens: 2_000, prices: [{ model: 'gpt-4o-mini', input: 0.15, output: 0.6 }] };

  it('a crafted file cannot drop the limits, zero the prices or raise Max tokens per answer; the summary lists what was kept', async () => {
    await seedDatabase(db);
    const file = JSON.parse(await backupText(db));
    // The backup's settings: no token or daily limit, a money limit 500 times higher, free tokens, answers of a million tokens.
    file.data.settings = { ...file.data.settings, costLimit: 1_000, maxTokens: 1_000_000, prices: [{ model: 'gpt-4o-mini', input: 0, output: 0 }] };
    await db.settings.put({ key: 'settings', value: HERE });

    const result = await restoreBackup(db, JSON.stringify(file));

    expect((await db.settings.get('settings'))?.value).toEqual(HERE);
    expect(result.settings).toBe('unchanged');

    // The same with a change the backup may make (the model): written, bounds kept.
    file.data.settings.model = 'gpt-4o';
    const written = await restoreBackup(db, JSON.stringify(file));
    expect(written.settings).toBe('restored');
    expect((await db.settings.get('settings'))?.value).toEqual({ ...HERE, model: 'gpt-4o' });
    expect(written.keptStricter).toEqual([
      { setting: 'tokenLimit', kept: 50_000, backup: null },
      { setting: 'costLimit', kept: 2, backup: 1_000 },
      { setting: 'dailyCostLimit', kept: 5, backup: null },
      { setting: 'maxTokens', kept: 2_000, backup: 1_000_000 },
      { setting: 'price', model: 'gpt-4o-mini' },
    ]);
    expect(describeRestore(written)).toContain(
      "A backup never loosens a limit or lowers a price, so this browser's stricter ones were kept: " +
        'Token limit per conversation 50,000 (the backup had none), Spending limit per conversation 2 (the backup had 1,000), ' +
        'Spending limit per day 5 (the backup had none), Max tokens per answer 2,000 (the backup had 1,000,000) ' +
        "and the price of gpt-4o-mini (the backup's were lower or missing). Change them in Settings if you mean to.",
    );
  });

  it('takes the backup’s stricter bounds, and says nothing of them', async () => {
    await seedDatabase(db);
    const file = JSON.parse(await backupText(db));
    file.data.settings = { ...HERE, tokenLimit: 10_000, maxTokens: 1_000, prices: [{ model: 'gpt-4o-mini', input: 0.3, output: 1.2 }] };
    await db.settings.put({ key: 'settings', value: HERE });

    const result = await restoreBackup(db, JSON.stringify(file));

    expect(result).toMatchObject({ settings: 'restored', keptStricter: [] });
    expect((await db.settings.get('settings'))?.value).toMatchObject({ tokenLimit: 10_000, maxTokens: 1_000, prices: [{ model: 'gpt-4o-mini', input: 0.3, output: 1.2 }] });
    expect(describeRestore(result)).not.toContain('never loosens');
  });
});

describe('restoreBackup: reporting', () => {
  it('reports progress in records and bytes while checking the file, then in records while writing', async () => {
    await seedDatabase(db, { messagesPerConversation: 10 });
    const text = await backupText(db);
    await wipeData(db);
    const progress: RestoreProgress[] = [];
    await restoreBackup(db, text, { onProgress: (p) => progress.push(p) });
    const checking = progress.filter((p) => p.phase === 'checking');
    expect(checking.at(-1)).toEqual({ phase: 'checking', records: 28, totalRecords: null, bytes: text.length, totalBytes: text.length });
    // 2 conversations, 20 messages, 2 cards and 1 ledger entry: the notes, rules and settings come after them.
    expect(progress.filter((p) => p.phase === 'writing').at(-1)).toEqual({ phase: 'writing', records: 25, totalRecords: 28, bytes: text.length, totalBytes: text.length });
  });

  it('mentions records the backup could not include when it was made', async () => {
    await seedDatabase(db);
    await db.messages.put({ v: 1, id: 'broken', conversationId: 'c3', seq: 0, createdAt: 1, role: 'robot', content: 'x' } as never);
    const text = await backupText(db);
    await wipeData(db);
    const result = await restoreBackup(db, text);
    expect(result.skippedInBackup).toBe(1);
    expect(describeRestore(result)).toBe(
      'Restored 2 conversations (6 messages, 2 approvals), 1 note and 2 approval rules. ' +
        '1 conversation was working when the backup was made; nothing runs in it until you press Continue. ' +
        '1 allow rule came back switched off, as a backup never grants anything by itself: turn it on in Settings if you still want it. ' +
        'The backup notes 1 record that could not be read when it was made; it is not in it.',
    );
  });
});

describe('restoreBackup: twice', () => {
  it('changes nothing the second time', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    await wipeData(db);
    await restoreBackup(db, text);
    const once = await databaseSnapshot(db);

    const second = await restoreBackup(db, text);

    expect(await databaseSnapshot(db)).toEqual(once);
    expect(second).toMatchObject({ conversations: 0, messages: 0, pausePoints: 0, ledger: 0, notes: 0, conversationsKept: 2, settings: 'unchanged' });
    expect(describeRestore(second)).toBe(
      'Nothing to restore: everything in this backup is already here. 2 conversations from the backup were already here and kept as they are.',
    );
  });

  it('never rolls back a conversation that moved on since the backup', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    // After the backup: the pending card was decided and the conversation continued.
    await db.pausePoints.update('p1', { status: 'resolved', resolution: 'approve', resolvedAt: 9_000 });
    await db.conversations.update('c1', { state: { kind: 'idle' }, nextSeq: 4, updatedAt: 9_000 });
    await db.messages.put({ v: 1, id: 'c1-m0003', conversationId: 'c1', seq: 3, createdAt: 9_000, role: 'user', content: 'Approval approval: approve' });
    // …and the other conversation was deleted.
    await db.transaction('rw', db.conversations, db.messages, db.pausePoints, db.ledger, async () => {
      await db.conversations.delete('c2');
      await db.messages.where('[conversationId+seq]').between(['c2', 0], ['c2', Infinity]).delete();
      await db.pausePoints.where('conversationId').equals('c2').delete();
      await db.ledger.where('conversationId').equals('c2').delete();
    });
    const c1Before = {
      conversation: await db.conversations.get('c1'),
      messages: await db.messages.where('[conversationId+seq]').between(['c1', 0], ['c1', Infinity]).toArray(),
      pausePoint: await db.pausePoints.get('p1'),
    };

    const result = await restoreBackup(db, text);

    expect(await db.conversations.get('c1')).toEqual(c1Before.conversation);
    expect(await db.messages.where('[conversationId+seq]').between(['c1', 0], ['c1', Infinity]).toArray()).toEqual(c1Before.messages);
    expect(await db.pausePoints.get('p1')).toEqual(c1Before.pausePoint);
    expect(await db.conversations.get('c2')).toMatchObject({ title: 'Newsletter' });
    expect(result).toMatchObject({ conversations: 1, messages: 3, pausePoints: 1, ledger: 1, conversationsKept: 1 });
  });

  it('writes a note only when it is missing or older here', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    await db.notes.put({ v: 1, id: 'n1', title: 'Numbering', body: 'Edited later.', createdAt: 1_000, updatedAt: 8_000 });
    await restoreBackup(db, text);
    expect((await db.notes.get('n1'))?.body).toBe('Edited later.');

    await db.notes.put({ v: 1, id: 'n1', title: 'Numbering', body: 'Older.', createdAt: 1_000, updatedAt: 1_100 });
    const result = await restoreBackup(db, text);
    expect((await db.notes.get('n1'))?.body).toBe('Invoices start at 42.');
    expect(result.notes).toBe(1);
  });
});

describe('restoreBackup: nothing comes back acting', () => {
  it('a pending card comes back expired and restored, without its expiry: nothing of a file waits for a decision here', async () => {
    await seedDatabase(db);
    await db.pausePoints.update('p1', { expiresAt: 7_000 });
    const text = await backupText(db);
    await wipeData(db);

    await restoreBackup(db, text);

    expect(await db.pausePoints.get('p1')).toMatchObject({ status: 'expired', expiredReason: 'abandoned', restored: true, expiresAt: null });
    expect((await db.conversations.get('c1'))?.state).toEqual(INTERRUPTED);
  });

  it('a rule whose id is here already is kept as it is here', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    await wipeData(db);
    const mine = { ...SEED_ALLOW_RULE, tool: 'notes_*', lastUsedAt: 9_000 };
    await db.approvalRules.put(mine);

    const result = await restoreBackup(db, text);

    expect(await db.approvalRules.get('r1')).toEqual(mine);
    expect(await db.approvalRules.get('r2')).toMatchObject({ source: 'backup', enabled: true });
    expect(result).toMatchObject({ approvalRules: 1, allowRulesOff: 0 });
    // Only the rule the restore wrote is in the audit log as restored.
    expect((await db.auditEvents.toArray()).map((event) => [event.kind, event.kind === 'tool_definition_changed' || event.kind === 'push_sent' ? null : event.rule.id])).toEqual([['rule_restored', 'r2']]);
  });

  it('a rule removed here does not come back from a backup: its removal is final', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    await wipeData(db);
    await putRule(db, SEED_ALLOW_RULE);
    await removeRule(db, SEED_ALLOW_RULE.id);

    const result = await restoreBackup(db, text);

    expect(await db.approvalRules.get(SEED_ALLOW_RULE.id)).toBeUndefined();
    expect(result).toMatchObject({ approvalRules: 1 });
    expect((await db.ruleEvents.where('ruleId').equals(SEED_ALLOW_RULE.id).toArray()).map((e) => e.change.kind)).toEqual(['created', 'removed']);
  });

  it('puts each restored rule in the audit log as it came back, allow rules switched off', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    await wipeData(db);
    await restoreBackup(db, text);
    const events = (await db.auditEvents.toArray()).sort((a, b) => (a.kind === 'tool_definition_changed' || b.kind === 'tool_definition_changed' || a.kind === 'push_sent' || b.kind === 'push_sent' ? 0 : a.rule.id < b.rule.id ? -1 : 1));
    expect(events).toEqual([
      { v: 1, id: expect.any(String), at: expect.any(Number), kind: 'rule_restored', rule: { ...SEED_ALLOW_RULE, source: 'backup', enabled: false }, ruleText: expect.stringMatching(/^Allow /) },
      { v: 1, id: expect.any(String), at: expect.any(Number), kind: 'rule_restored', rule: { ...SEED_DENY_RULE, source: 'backup' }, ruleText: expect.stringMatching(/^Deny /) },
    ]);
    // Restoring the same file again writes nothing, the audit log included.
    await restoreBackup(db, text);
    expect(await db.auditEvents.count()).toBe(2);
  });

  it('the rules of a conversation that is here already are not written: it is kept whole', async () => {
    await seedDatabase(db);
    const text = await backupText(db);
    await db.approvalRules.clear();

    const result = await restoreBackup(db, text);

    // r1 applies everywhere and is written (switched off); r2 belongs to c1, which is here.
    expect((await db.approvalRules.toArray()).map((rule) => rule.id)).toEqual(['r1']);
    expect(result).toMatchObject({ conversations: 0, approvalRules: 1, conversationsKept: 2 });
  });

  it('refuses a record whose id another conversation here already uses, and writes nothing', async () => {
    await seedDatabase(db);
    const file = JSON.parse(await backupText(db));
    await wipeData(db);
    // A different conversation here owns a message with the id the backup's c2 message has.
    await db.conversations.put({ ...file.data.conversations[0], id: 'here', title: 'Here' });
    await db.messages.put({ ...file.data.messages[4], conversationId: 'here', content: 'mine' });
    const before = await databaseSnapshot(db);

    const error = await refusal(db, JSON.stringify(file));

    expect(error).toMatchObject({ code: 'conflict', table: 'messages', index: 4 });
    expect(error.message).toBe(
      'Record 4 of messages (id "c2-m0001") has the id of a message already in this browser, in another conversation; restoring it would replace that one. Nothing was restored.',
    );
    expect(await databaseSnapshot(db)).toEqual(before);
  });
});
