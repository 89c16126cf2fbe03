import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModernServer, type ModernServer } from '../../tests/e2e/mcp-modern.ts';
import { realSleeps } from '../engine/testing/fake-clock.ts';
import { crashableStorage } from '../engine/testing/crashable-storage.ts';
import { harness, pending, state, tab, type Harness } from '../engine/testing/harness.ts';
import { McpHub } from './mcp-hub.ts';
import { openHttpSession } from './open-http-session.ts';
import { closeAfter, closeHubs, until } from './testing/hub-fixture.ts';
import { MemoryMcpStore } from './testing/memory-mcp-store.ts';

/** A port of its own (other files start servers too, and other checkouts run beside this one). */
const PORT = 18_690 + (process.pid % 40) * 2 + 1;

let modern: ModernServer;
beforeAll(async () => {
  modern = await startModernServer(PORT);
}, 30_000);
afterAll(async () => {
  await closeHubs();
  await modern?.close();
});

/** A hub of its own (one per tab), over the loopback 2026-07-28 server that runs slow_job as a task. */
async function hubOver(store = new MemoryMcpStore()) {
  const hub = new McpHub({
    store,
    open: (record, events) => openHttpSession({ url: record.url, headers: record.auth.headers, bearerToken: record.auth.bearerToken }, events),
    newId: () => 'modern',
    reserved: new Set(),
    retryDelaysMs: [10],
  });
  closeAfter(hub);
  await hub.start();
  if (!store.rows.has('modern')) await hub.add({ url: modern.url, name: 'Modern' });
  await until(() => (store.rows.get('modern')?.status.kind === 'connected' ? true : undefined), 'connected');
  return { hub, store };
}

const ledgerOf = (h: Harness, id: string) => h.storage.getLedgerEntry(`${id}:call_job`);

/** Approves the call to slow_job in `engine`'s tab and waits until its task id is on the ledger. */
async function startJob(h: Harness, engine: Harness['engine'], label: string, seconds: number) {
  h.model.push({ calls: [{ name: 'modern__slow_job', args: { label, seconds }, id: 'call_job' }] }, { text: 'The job is done.' });
  const id = await engine.createConversation();
  await engine.send(id, `run job ${label}`);
  const gate = await until(async () => (await pending(h, id))[0], 'the gate');
  await engine.decide(gate.id, { type: 'approve' }, tab('tab-A'));
  const entry = await until(async () => (await ledgerOf(h, id))?.task, 'the task id on the ledger');
  return { id, taskId: entry.id };
}

describe('a tool call the server runs as a task (issue 34 part 3, against the SDK v2 server on loopback)', () => {
  it('the tab dies mid-task; the next tab reads the outcome back with tasks/get: run once, no Outcome unknown', async () => {
    const a = await hubOver();
    let dead = false;
    const h = harness([], { clock: realSleeps() });
    const tabAStorage = crashableStorage(h.storage, () => dead);
    const tabA = h.openTab('tab-A', { storage: tabAStorage, dynamicTools: () => a.hub.tools() });
    const { id, taskId } = await startJob(h, tabA, 'A', 2);
    expect(await ledgerOf(h, id)).toMatchObject({ status: 'started', task: { id: taskId } });
    // The tab dies while the server still works on the task: nothing it would write lands.
    dead = true;
    await a.hub.close();
    await tabA.whenIdle().catch(() => undefined);
    expect(await state(h, id)).toMatchObject({ kind: 'running', owner: 'tab-A' });

    const b = await hubOver(a.store);
    const tabB = h.openTab('tab-B', { dynamicTools: () => b.hub.tools() });
    expect(await tabB.recover(id)).toBe(true);
    await tabB.whenIdle();

    const results = (await h.storage.listMessages(id)).filter((m) => m.role === 'tool');
    expect(results.map((m) => m.outcome)).toEqual(['done']);
    expect(results[0]!.content).toContain('Job A done.');
    expect((await pending(h, id)).filter((p) => p.origin === 'unknown_outcome')).toEqual([]);
    expect(await ledgerOf(h, id)).toMatchObject({ status: 'succeeded', attempts: 1, task: { id: taskId } });
    expect((await modern.calls()).filter((call) => call.tool === 'slow_job')).toEqual([{ tool: 'slow_job', args: { label: 'A' }, revision: '2026-07-28', task: taskId }]);
    // The model's next request carries the task's result.
    expect(h.model.requests.at(-1)!.messages).toContainEqual(expect.objectContaining({ role: 'tool', content: expect.stringContaining('Job A done.') }));
  }, 30_000);

  it('Cancel on a running task asks the server to cancel it, and the model is told it was cancelled', async () => {
    const { hub } = await hubOver();
    const h = harness([], { clock: realSleeps(), dynamicTools: () => hub.tools() });
    const { id, taskId } = await startJob(h, h.engine, 'B', 60);
    const tool = hub.tools().find((t) => t.name === 'modern__slow_job');
    await tool!.cancelTask!(taskId);
    await h.engine.whenIdle();

    const [result] = (await h.storage.listMessages(id)).filter((m) => m.role === 'tool');
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(result!.content).toContain('Cancelled: the server cancelled its task');
    expect(await (await fetch(`http://localhost:${PORT}/test/tasks/${taskId}`)).json()).toMatchObject({ status: 'cancelled' });
  }, 30_000);
});
