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

/** A hub of its own (one per tab), over the loopback 2026-07-28 server that runs slow_job and ship_job as tasks. */
async function hubOver(store = new MemoryMcpStore(), retryDelaysMs: readonly number[] = [10]) {
  const hub = new McpHub({
    store,
    open: (record, events) => openHttpSession({ url: record.url, headers: record.auth.headers, bearerToken: record.auth.bearerToken }, events),
    newId: () => 'modern',
    reserved: new Set(),
    retryDelaysMs,
  });
  closeAfter(hub);
  await hub.start();
  if (!store.rows.has('modern')) await hub.add({ url: modern.url, name: 'Modern' });
  await until(() => (store.rows.get('modern')?.status.kind === 'connected' ? true : undefined), 'connected');
  return { hub, store };
}

const ledgerOf = (h: Harness, id: string) => h.storage.getLedgerEntry(`${id}:call_job`);
const toolResults = async (h: Harness, id: string) => (await h.storage.listMessages(id)).filter((m) => m.role === 'tool');
const unknownCards = async (h: Harness, id: string) => (await h.storage.listPausePoints(id)).filter((p) => p.origin === 'unknown_outcome');

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

/** Approves a call to ship_job (a task that asks who signs it off) in `engine`'s tab; resolves with its question's card once it is shown. */
async function startShipping(h: Harness, engine: Harness['engine'], label: string) {
  h.model.push({ calls: [{ name: 'modern__ship_job', args: { label, seconds: 0.5 }, id: 'call_job' }] }, { text: 'Shipping handled.' });
  const id = await engine.createConversation();
  await engine.send(id, `ship job ${label}`);
  const gate = await until(async () => (await pending(h, id))[0], 'the gate');
  await engine.decide(gate.id, { type: 'approve' }, tab('tab-A'));
  const card = await until(async () => (await pending(h, id)).find((p) => p.origin === 'elicitation'), 'the task’s question as a card');
  const taskId = (await ledgerOf(h, id))!.task!.id;
  return { id, taskId, card };
}

describe('a task that asks (input_required) is a card like any other (issue 34 part 3)', () => {
  it('its question is a form card; the answer reaches the task through tasks/update, and its result reaches the model once', async () => {
    const { hub } = await hubOver();
    const h = harness([], { clock: realSleeps(), dynamicTools: () => hub.tools() });
    const { id, taskId, card } = await startShipping(h, h.engine, 'S');
    expect(card).toMatchObject({ kind: 'data_entry', title: 'Modern asks for information', taskInput: { taskId, key: 'signoff' } });
    expect(card.description).toContain('Who signs off shipping job S?');
    expect(await modern.task(taskId)).toMatchObject({ status: 'input_required', responses: [] });

    await h.engine.decide(card.id, { type: 'submit', data: { approver: 'Grace' } }, tab('tab-A'));
    await h.engine.whenIdle();

    expect((await toolResults(h, id)).map((m) => [m.outcome, m.content])).toEqual([['done', expect.stringContaining('Job S shipped, signed off by Grace.')]]);
    expect(await modern.task(taskId)).toMatchObject({ status: 'completed', responses: [{ signoff: { action: 'accept', content: { approver: 'Grace' } } }] });
    expect(await ledgerOf(h, id)).toMatchObject({ status: 'succeeded', attempts: 1, task: { id: taskId } });
    expect((await modern.calls()).filter((call) => call.task === taskId)).toHaveLength(1);
    const told = h.model.requests.at(-1)!.messages.filter((m) => m.role === 'tool');
    expect(told).toEqual([expect.objectContaining({ content: expect.stringContaining('signed off by Grace') })]);
  }, 30_000);

  it('Decline: the server gets a decline through tasks/update, and the model is told the task’s answer to it', async () => {
    const { hub } = await hubOver();
    const h = harness([], { clock: realSleeps(), dynamicTools: () => hub.tools() });
    const { id, taskId, card } = await startShipping(h, h.engine, 'D');
    await h.engine.decide(card.id, { type: 'decline' }, tab('tab-A'));
    await h.engine.whenIdle();

    expect(await modern.task(taskId)).toMatchObject({ status: 'completed', responses: [{ signoff: { action: 'decline' } }] });
    expect((await toolResults(h, id)).map((m) => m.content)).toEqual([expect.stringContaining('Job D not shipped: the sign-off was declined.')]);
    expect(h.model.requests.at(-1)!.messages).toContainEqual(expect.objectContaining({ role: 'tool', content: expect.stringContaining('not shipped: the sign-off was declined') }));
  }, 30_000);

  it('the tab dies while the card waits: the next tab keeps the same card, and its answer still reaches the task', async () => {
    const a = await hubOver();
    let dead = false;
    const h = harness([], { clock: realSleeps() });
    const tabA = h.openTab('tab-A', { storage: crashableStorage(h.storage, () => dead), dynamicTools: () => a.hub.tools() });
    const { id, taskId, card } = await startShipping(h, tabA, 'R');
    dead = true;
    await a.hub.close();
    await tabA.whenIdle().catch(() => undefined);

    const b = await hubOver(a.store);
    const tabB = h.openTab('tab-B', { dynamicTools: () => b.hub.tools() });
    // Its run goes on until the task ends: it follows the task, which still asks, and waits on the card tab A made, not a new one.
    const recovered = tabB.recover(id);
    await until(async () => ((await modern.task(taskId))?.status === 'input_required' && (await h.storage.getPausePoint(card.id))?.status === 'pending' ? true : undefined), 'the card, still pending');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await h.storage.listPausePoints(id)).filter((p) => p.origin === 'elicitation').map((p) => [p.id, p.status])).toEqual([[card.id, 'pending']]);

    await tabB.decide(card.id, { type: 'submit', data: { approver: 'Ada' } }, tab('tab-B'));
    expect(await recovered).toBe(true);
    await tabB.whenIdle();
    expect(await modern.task(taskId)).toMatchObject({ status: 'completed', responses: [{ signoff: { action: 'accept', content: { approver: 'Ada' } } }] });
    expect((await toolResults(h, id)).map((m) => [m.outcome, m.content])).toEqual([['done', expect.stringContaining('Job R shipped, signed off by Ada.')]]);
    expect(await unknownCards(h, id)).toEqual([]);
  }, 30_000);
});

describe('a connection that drops while a task is followed (issue 34 part 3)', () => {
  it('the server’s listener closes and reopens mid-poll: the poll reconnects and reads the task back; it completes once, never Outcome unknown', async () => {
    const { hub, store } = await hubOver(undefined, [200, 400, 800, 1_600]);
    const h = harness([], { clock: realSleeps(), dynamicTools: () => hub.tools() });
    const { id, taskId } = await startJob(h, h.engine, 'N', 3);
    await modern.dropFor(1_500);
    // The drop is seen: the hub lost its connection while the task was followed.
    await until(() => (store.rows.get('modern')?.status.kind !== 'connected' ? true : undefined), 'the connection lost');
    await h.engine.whenIdle();

    expect((await toolResults(h, id)).map((m) => [m.outcome, m.content])).toEqual([['done', expect.stringContaining('Job N done.')]]);
    expect(await unknownCards(h, id)).toEqual([]);
    expect(await ledgerOf(h, id)).toMatchObject({ status: 'succeeded', attempts: 1, task: { id: taskId } });
    expect((await modern.calls()).filter((call) => call.task === taskId)).toHaveLength(1);
  }, 40_000);

  it('a server that restarted and forgot the task: only then is the user asked whether it finished', async () => {
    const { hub } = await hubOver(undefined, [200, 400, 800, 1_600]);
    const h = harness([], { clock: realSleeps(), dynamicTools: () => hub.tools() });
    const { id, taskId } = await startJob(h, h.engine, 'F', 30);
    await modern.restart();
    await h.engine.whenIdle();

    expect(await toolResults(h, id)).toEqual([]);
    const [asked] = await unknownCards(h, id);
    expect(asked).toMatchObject({ status: 'pending', title: 'Did “modern__slow_job” finish?' });
    expect(asked!.description).toContain(`no longer knows its task ${taskId}`);
    expect(await ledgerOf(h, id)).toMatchObject({ status: 'unknown' });
  }, 40_000);
});

