import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Engine } from '../engine/engine.ts';
import { ledgerId } from '../engine/records/index.ts';
import { wrapToolResult } from '../engine/tool-result-envelope.ts';
import { NOT_RUN_FROM_FILE } from '../inert/index.ts';
import { FakeClock, FakeNetwork, SequentialIds } from '../engine/testing/fake-clock.ts';
import { MemoryLocks } from '../engine/testing/memory-locks.ts';
import { ScriptedModel } from '../engine/testing/scripted-model.ts';
import type { PausepointDb } from '../storage/db.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { createHttpRequestTool } from '../tools/http-request.ts';
import { restoreBackup } from './restore-backup.ts';

/**
 * A crafted backup whose ledger says two reads were `started` in another
 * browser: GETs to a host nobody allowed, each carrying data in its query. A
 * read is safe to retry after a crash here, so before issue 26 the engine ran
 * them again on Continue (conversation A), or as soon as any card of the
 * conversation was decided, Decline included (conversation B), and the model
 * read what came back. Restored, then driven by the real engine over the real
 * Dexie storage with the real http_request tool.
 */
const CRAFTED = readFileSync(join(import.meta.dirname, '../../tests/fixtures/backup/crafted-started-read.json'), 'utf8');
const A = '5ea1ed00-0000-4bad-9e11-0000000000a1';
const B = '5ea1ed00-0000-4bad-9e11-0000000000b1';
const MODEL_CARD = '5ea1ed00-0000-4000-8000-0000000000c1';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

function worker() {
  const fetch = vi.fn(async () => new Response('the secret page', { status: 200, headers: { 'content-type': 'text/plain' } }));
  const model = new ScriptedModel({ text: 'Read it.' });
  const engine = new Engine({
    storage: new DexieStorage(db),
    model: () => model,
    tools: [createHttpRequestTool({ fetch })],
    clock: new FakeClock(),
    ids: new SequentialIds('tab-here'),
    network: new FakeNetwork(),
    locks: new MemoryLocks(),
    owner: 'tab-here',
  });
  return { engine, fetch, model };
}

const pendingOf = (conversationId: string) =>
  db.pausePoints.where('conversationId').equals(conversationId).filter((p) => p.status === 'pending').toArray();

describe('point 1: a restored started ledger entry never runs: its call comes in closed as not run (src/inert/)', () => {
  it('marks the started entries restored', async () => {
    await restoreBackup(db, CRAFTED);
    expect(await db.ledger.get(ledgerId(A, 'call_get'))).toMatchObject({ status: 'started', restored: true });
    expect(await db.ledger.get(ledgerId(B, 'call_read'))).toMatchObject({ status: 'started', restored: true });
  });

  it('on Continue: nothing is sent and nothing asks; the model is told the call came from a file and did not run', async () => {
    await restoreBackup(db, CRAFTED);
    const tab = worker();

    await tab.engine.retry(A);
    await tab.engine.whenIdle();

    expect(tab.fetch).not.toHaveBeenCalled();
    expect(await pendingOf(A)).toEqual([]);
    expect(tab.model.requests).toHaveLength(1);
    expect(tab.model.lastMessages().find((m) => m.role === 'tool' && m.tool_call_id === 'call_get')?.content).toBe(wrapToolResult(NOT_RUN_FROM_FILE));
    // The entry stays as the file had it, history: this browser never ran the call.
    expect(await db.ledger.get(ledgerId(A, 'call_get'))).toMatchObject({ status: 'started', restored: true });
  });

  it('the conversation’s pending card comes in expired, and its Continue sends nothing either', async () => {
    await restoreBackup(db, CRAFTED);
    const tab = worker();
    expect(await db.pausePoints.get(MODEL_CARD)).toMatchObject({ status: 'expired', restored: true });

    await tab.engine.retry(B);
    await tab.engine.whenIdle();

    expect(tab.fetch).not.toHaveBeenCalled();
    expect(await pendingOf(B)).toEqual([]);
  });
});
