import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { createBackup, type BackupProgress } from './create-backup.ts';
import { makeLedgerEntry, makePausePoint } from '../engine/testing/make-records.ts';
import { restoreBackup } from './restore-backup.ts';
import { readSettings, saveSettings } from '../storage/settings-repo.ts';
import { SEED_API_KEY, SEED_DENY_RULE, SEED_DEVICE_ID, SEED_OTHER_API_KEY, seedDatabase } from './testing/seed-database.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

const NOW = Date.UTC(2026, 0, 31, 12, 0, 0);

describe('createBackup', () => {
  it('writes a versioned file with every record of every table', async () => {
    await seedDatabase(db);
    const backup = await createBackup(db, { now: () => NOW });
    const file = JSON.parse(await backup.blob.text());

    expect(file).toMatchObject({ format: 'pausepoint.backup', version: 3, createdAt: '2026-01-31T12:00:00.000Z', appVersion: expect.any(String) });
    expect(file.data.conversations).toEqual(await db.conversations.toArray());
    expect(file.data.messages).toEqual(await db.messages.toArray());
    expect(file.data.pausePoints).toEqual(await db.pausePoints.toArray());
    expect(file.data.ledger).toEqual(await db.ledger.toArray());
    expect(file.data.notes).toEqual(await db.notes.toArray());
    expect(file.data.approvalRules).toEqual(await db.approvalRules.toArray());
    expect(file.data.approvalRules).toHaveLength(2);
    expect(file.skipped).toEqual([]);
    expect(backup.counts).toEqual({ conversations: 2, messages: 6, pausePoints: 2, ledger: 1, notes: 1, approvalRules: 2, auditEvents: 0, settings: true, attachments: 0 });
    expect(backup.fileName).toMatch(/^pausepoint-backup-2026-01-3[01]\.json$/);
    expect(backup.blob.type).toBe('application/json');
  });

  it('leaves MCP servers out, with their bearer tokens and custom headers', async () => {
    await seedDatabase(db);
    await db.mcpServers.put({
      v: 1,
      id: 'srv-1',
      url: 'https://mcp.example.com/mcp',
      name: 'Example',
      prefix: 'example',
      createdAt: NOW,
      enabled: true,
      trusted: false,
      auth: { bearerToken: 'mcp-secret-token', headers: { 'x-api-key': 'mcp-secret-header' } },
      status: { kind: 'connected', at: NOW, transport: 'streamable_http' },
      serverInfo: null,
      tools: [],
    });
    const text = await (await createBackup(db)).blob.text();
    expect(text).not.toContain('mcp-secret-token');
    expect(text).not.toContain('mcp-secret-header');
    expect(text).not.toContain('mcp.example.com');
  });

  it('leaves MCP servers’ OAuth tokens and client registrations out', async () => {
    await seedDatabase(db);
    await db.mcpOAuth.put({
      v: 1,
      serverId: 'srv-1',
      redirectUrl: 'https://app.example/mcp-oauth-callback',
      clientInformation: { client_id: 'oauth-client-id-secretish', redirect_uris: ['https://app.example/mcp-oauth-callback'] },
      tokens: { access_token: 'oauth-access-token', refresh_token: 'oauth-refresh-token', token_type: 'bearer' },
      tokensSavedAt: NOW,
      authorizationServer: null,
      pending: { state: 'oauth-state-0123456789', codeVerifier: 'oauth-code-verifier', startedAt: NOW, authorizationServer: null },
      updatedAt: NOW,
    });
    const text = await (await createBackup(db)).blob.text();
    for (const secret of ['oauth-access-token', 'oauth-refresh-token', 'oauth-client-id-secretish', 'oauth-code-verifier', 'oauth-state-0123456789', 'mcpOAuth']) {
      expect(text).not.toContain(secret);
    }
  });

  it('leaves the custom headers out: their names and values, of every origin', async () => {
    await seedDatabase(db);
    await saveSettings(db, { provider: 'custom', baseUrl: 'https://gateway.example/v1', apiKey: '', model: 'm', headers: [{ name: 'X-Gateway-Token', value: 'gw-header-secret' }] });
    await saveSettings(db, { provider: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: SEED_API_KEY, model: 'gpt-4o-mini', headers: [{ name: 'X-Openai-Extra', value: 'openai-header-secret' }] });
    expect((await readSettings(db))?.headers).toEqual([{ name: 'X-Openai-Extra', value: 'openai-header-secret' }]);
    const text = await (await createBackup(db)).blob.text();
    for (const secret of ['gw-header-secret', 'openai-header-secret', 'X-Gateway-Token', 'X-Openai-Extra', 'endpointHeaders', '"headers"']) {
      expect(text).not.toContain(secret);
    }
    expect(JSON.parse(text).data.settings).toMatchObject({ provider: 'openai', baseUrl: 'https://api.openai.com/v1' });
  });

  it('keeps every setting but the API key, and leaves the device id out', async () => {
    await seedDatabase(db);
    const text = await (await createBackup(db)).blob.text();

    // Neither the key of the settings' endpoint nor any other origin's key: the keys row is never read.
    expect(text).not.toContain(SEED_API_KEY);
    expect(text).not.toContain(SEED_OTHER_API_KEY);
    expect(text).not.toContain('apiKey');
    expect(JSON.parse(text).data.settings).toEqual({
      v: 1,
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      expiryMinutes: null,
      notifications: true,
      badge: false,
    });
    expect(text).not.toContain('"key"');
    // The device id is still in a pause point's `decidedBy`: that is audit data, not this browser's identity row.
    expect(text.split(SEED_DEVICE_ID)).toHaveLength(2);
  });

  it('reads in pages, reporting progress, and still writes every record once', async () => {
    await seedDatabase(db, { messagesPerConversation: 25 });
    const progress: BackupProgress[] = [];
    const backup = await createBackup(db, { pageSize: 7, onProgress: (p) => progress.push(p) });
    const file = JSON.parse(await backup.blob.text());

    expect(file.data.messages.map((m: { id: string }) => m.id)).toEqual((await db.messages.toArray()).map((m) => m.id));
    expect(file.data.messages).toHaveLength(50);
    const total = 2 + 50 + 2 + 1 + 1 + 2;
    expect(progress[0]).toEqual({ done: 0, total });
    expect(progress.at(-1)).toEqual({ done: total, total });
    expect(progress.length).toBeGreaterThan(8);
  });

  it('lists each conversation’s messages together, in seq order, whatever order their ids give them', async () => {
    await seedDatabase(db, { messagesPerConversation: 0 });
    // Ids that interleave the two conversations, as random ids do.
    const message = (conversationId: string, seq: number, id: string) => ({ v: 1 as const, id, conversationId, seq, createdAt: 2_000 + seq, role: 'user' as const, content: `${conversationId} ${seq}` });
    await db.messages.bulkPut([
      ...Array.from({ length: 9 }, (_, seq) => message('c1', seq, `m-${String(seq * 2).padStart(2, '0')}`)),
      ...Array.from({ length: 9 }, (_, seq) => message('c2', seq, `m-${String(seq * 2 + 1).padStart(2, '0')}`)),
      // Two messages with one seq, the second of them just past a page's end: both written, once.
      message('c1', 3, 'm-99-tied'),
    ]);
    const file = JSON.parse(await (await createBackup(db, { pageSize: 4 })).blob.text());

    const listed = file.data.messages.map((m: { conversationId: string; seq: number }) => `${m.conversationId}:${m.seq}`);
    expect(listed).toEqual([...['0', '1', '2', '3', '3', '4', '5', '6', '7', '8'].map((seq) => `c1:${seq}`), ...Array.from({ length: 9 }, (_, seq) => `c2:${seq}`)]);
    expect(new Set(file.data.messages.map((m: { id: string }) => m.id)).size).toBe(19);
  });

  it('still lists a message the conversation index cannot hold, among the records that would not restore', async () => {
    await seedDatabase(db);
    await db.messages.put({ v: 1, id: 'no-seq', conversationId: 'c1', createdAt: 1, role: 'user', content: 'x' } as never);
    const backup = await createBackup(db, { pageSize: 2 });
    const file = JSON.parse(await backup.blob.text());

    expect(file.skipped).toEqual([{ table: 'messages', id: 'no-seq', reason: expect.stringContaining('seq') }]);
    expect(file.data.messages).toHaveLength(6);
  });

  it('writes an empty database as a valid file', async () => {
    const file = JSON.parse(await (await createBackup(db)).blob.text());
    expect(file.data).toEqual({ conversations: [], messages: [], pausePoints: [], ledger: [], notes: [], approvalRules: [], auditEvents: [], attachments: [], settings: null });
  });

  it('leaves out records that would not restore, and lists them', async () => {
    await seedDatabase(db);
    await db.messages.put({ v: 1, id: 'broken', conversationId: 'c1', seq: 9, createdAt: 1, role: 'robot', content: 'x' } as never);
    await db.ledger.put({ v: 1, id: 'c1:big', conversationId: 'c1', toolCallId: 'big', toolName: 't', args: { n: 10n }, status: 'started', attempts: 1, startedAt: 1, finishedAt: null, result: null });
    const backup = await createBackup(db);
    const file = JSON.parse(await backup.blob.text());

    expect(file.data.messages.map((m: { id: string }) => m.id)).not.toContain('broken');
    expect(file.skipped).toEqual([
      { table: 'messages', id: 'broken', reason: expect.stringContaining('role') },
      { table: 'ledger', id: 'c1:big', reason: expect.stringMatching(/JSON cannot represent/) },
    ]);
    expect(backup.skipped).toEqual(file.skipped);
    expect(backup.counts.messages).toBe(6);
  });

  it('leaves out records whose conversation is gone or whose ledger id is not derived, so the file still restores', async () => {
    await seedDatabase(db);
    await db.messages.put({ v: 1, id: 'orphan-message', conversationId: 'gone', seq: 0, createdAt: 1, role: 'user', content: 'left behind' });
    await db.pausePoints.put(makePausePoint({ id: 'orphan-card', conversationId: 'gone' }));
    await db.ledger.put(makeLedgerEntry({ id: 'c2:not-this-call', conversationId: 'c2', toolCallId: 'call_9' }));
    await db.approvalRules.put({ ...SEED_DENY_RULE, id: 'orphan-rule', scope: { kind: 'conversation', conversationId: 'gone' } });
    const backup = await createBackup(db);
    const file = JSON.parse(await backup.blob.text());

    expect(file.skipped).toEqual([
      { table: 'messages', id: 'orphan-message', reason: 'It cannot be restored: it belongs to conversation "gone", which is not in the backup.' },
      { table: 'pausePoints', id: 'orphan-card', reason: 'It cannot be restored: it belongs to conversation "gone", which is not in the backup.' },
      { table: 'ledger', id: 'c2:not-this-call', reason: 'It cannot be restored: its id is not "c2:call_9", the id its conversation and tool call give it.' },
      { table: 'approvalRules', id: 'orphan-rule', reason: 'It cannot be restored: it belongs to conversation "gone", which is not in the backup.' },
    ]);
    await db.delete();
    await db.open();
    await expect(restoreBackup(db, JSON.stringify(file))).resolves.toMatchObject({ conversations: 2, messages: 6, approvalRules: 2, skippedInBackup: 4 });
  });

  it('names a broken settings row by its fields only, never its values', async () => {
    await db.settings.put({ key: 'settings', value: { v: 1, provider: 'openai', baseUrl: 'not a url', apiKey: SEED_API_KEY, model: 'm' } });
    const text = await (await createBackup(db)).blob.text();
    expect(text).not.toContain(SEED_API_KEY);
    expect(JSON.parse(text).data.settings).toBeNull();
    expect(JSON.parse(text).skipped).toEqual([{ table: 'settings', id: 'settings', reason: 'Invalid fields: baseUrl' }]);
  });

  it('stops when aborted', async () => {
    await seedDatabase(db, { messagesPerConversation: 30 });
    const controller = new AbortController();
    const backup = createBackup(db, {
      pageSize: 5,
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done > 10) controller.abort(new Error('cancelled by the user'));
      },
    });
    await expect(backup).rejects.toThrow('cancelled by the user');
  });

  it('is one snapshot: a write made while the backup runs is not half in it', async () => {
    await seedDatabase(db, { messagesPerConversation: 30 });
    let wrote: Promise<unknown> | undefined;
    const backup = await createBackup(db, {
      pageSize: 5,
      onProgress: ({ done }) => {
        // A worker appending a message and bumping the counter, mid-backup.
        if (done > 10 && !wrote) {
          wrote = db.transaction('rw', db.conversations, db.messages, async () => {
            await db.messages.put({ v: 1, id: 'c1-late', conversationId: 'c1', seq: 30, createdAt: 9_000, role: 'user', content: 'late' });
            await db.conversations.update('c1', { nextSeq: 31 });
          });
        }
      },
    });
    await wrote;
    const file = JSON.parse(await backup.blob.text());
    const c1 = file.data.conversations.find((c: { id: string }) => c.id === 'c1');
    const late = file.data.messages.some((m: { id: string }) => m.id === 'c1-late');
    // IndexedDB runs the write after the backup's read transaction: the file has neither half of it.
    expect(late).toBe(false);
    expect(c1.nextSeq).toBe(30);
    expect(await db.messages.get('c1-late')).toBeDefined();
    expect(await db.conversations.get('c1')).toMatchObject({ nextSeq: 31 });
  });
});
