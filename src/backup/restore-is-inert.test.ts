import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Engine } from '../engine/engine.ts';
import { wrapToolResult } from '../engine/tool-result-envelope.ts';
import { NOT_RUN_FROM_FILE } from '../inert/index.ts';
import { FakeClock, FakeNetwork, SequentialIds } from '../engine/testing/fake-clock.ts';
import { MemoryLocks } from '../engine/testing/memory-locks.ts';
import { ScriptedModel } from '../engine/testing/scripted-model.ts';
import type { PausepointDb } from '../storage/db.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { createHttpRequestTool } from '../tools/http-request.ts';
import { describeRestore } from './describe-restore.ts';
import { restoreBackup } from './restore-backup.ts';

/**
 * A crafted backup: a conversation left `running`, a resolved `approve` for its
 * gated call (a POST that moves money) with no ledger entry, and an allow rule
 * for that tool switched on. Restored, then driven by the real engine over the
 * real Dexie storage with the real http_request tool, as a worker would.
 */
const CRAFTED = readFileSync(join(import.meta.dirname, '../../tests/fixtures/backup/crafted-running-approved-call.json'), 'utf8');
const CONVERSATION = 'c0ffee00-5a1e-4bad-9e11-0000000000c1';
const RESTORED_CARD = 'c0ffee00-0000-4000-8000-0000000000b1';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

function worker(tabId: string) {
  const fetch = vi.fn(async () => new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } }));
  const model = new ScriptedModel({ text: 'The payment is sent.' });
  const engine = new Engine({
    storage: new DexieStorage(db),
    model: () => model,
    tools: [createHttpRequestTool({ fetch })],
    clock: new FakeClock(),
    ids: new SequentialIds(tabId),
    network: new FakeNetwork(),
    locks: new MemoryLocks(),
    owner: tabId,
  });
  return { engine, fetch, model };
}

describe('restoring a crafted "running + approved + never executed" backup', () => {
  it('brings the conversation back interrupted, the approval marked as restored, the allow rule off', async () => {
    const result = await restoreBackup(db, CRAFTED);

    expect(result).toMatchObject({ conversations: 1, interrupted: 1, approvalRules: 1, allowRulesOff: 1 });
    expect(describeRestore(result)).toContain('1 conversation was working when the backup was made; nothing runs in it until you press Continue.');
    expect((await db.conversations.get(CONVERSATION))?.state).toEqual({
      kind: 'error',
      code: 'interrupted',
      message: 'Restored from a backup made while it was working. Nothing has run here since; press Continue to go on.',
      retryable: true,
    });
    expect(await db.pausePoints.get(RESTORED_CARD)).toMatchObject({ status: 'resolved', resolution: 'approve', restored: true });
    expect(await db.approvalRules.toArray()).toMatchObject([{ effect: 'allow', enabled: false, source: 'backup' }]);
  });

  it('is not recovered by a worker: nothing is sent and the model is not called', async () => {
    await restoreBackup(db, CRAFTED);
    const tab = worker('tab-here');

    // What the worker's sweep does for every conversation it finds active.
    expect(await tab.engine.recover(CONVERSATION)).toBe(false);
    expect(await tab.engine.watch(CONVERSATION)).toBe(false);
    await tab.engine.whenIdle();

    expect(tab.fetch).not.toHaveBeenCalled();
    expect(tab.model.requests).toHaveLength(0);
    expect(await db.ledger.count()).toBe(0);
  });

  it('on Continue sends nothing and asks nothing: the model is told the call came from a file and did not run', async () => {
    await restoreBackup(db, CRAFTED);
    const tab = worker('tab-here');

    await tab.engine.retry(CONVERSATION);
    await tab.engine.whenIdle();

    expect(tab.fetch).not.toHaveBeenCalled();
    expect(await db.pausePoints.where('status').equals('pending').count()).toBe(0);
    expect(tab.model.requests).toHaveLength(1);
    const result = tab.model.lastMessages().find((m) => m.role === 'tool' && m.tool_call_id === 'call_pay');
    expect(result?.content).toBe(wrapToolResult(NOT_RUN_FROM_FILE));
    expect((await db.conversations.get(CONVERSATION))?.state).toEqual({ kind: 'idle' });
  });
});
