import { describe, expect, it } from 'vitest';
import type { StoragePort } from './storage-port.ts';
import { crashableStorage } from './testing/crashable-storage.ts';
import { harness, pending, say, state, tab, transferTool, type Harness } from './testing/harness.ts';
import { scriptedTool, sentButNoAnswer, untilStopped } from './testing/test-tools.ts';

const post = (text: string, id = 'call_post') => ({ calls: [{ name: 'post', args: { text }, id }] });
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

async function toolResults(h: Harness, conversationId: string) {
  return (await h.storage.listMessages(conversationId)).filter((m) => m.role === 'tool');
}

describe('unknown is not failed', () => {
  it('records a call whose tool cannot tell what happened as unknown, and asks the user', async () => {
    const tool = scriptedTool('post', sentButNoAnswer);
    const h = harness([post('hello')], { tools: [tool] });
    const id = await say(h, null, 'post it');

    expect(await h.storage.getLedgerEntry(`${id}:call_post`)).toMatchObject({ status: 'unknown', attempts: 1 });
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ origin: 'unknown_outcome', kind: 'choice', options: ['Run again', 'Treat as done', 'Skip'], payload: { text: 'hello' } });
    expect(card!.description).toContain('The request was sent but no answer came back within 30 s.');
    // No result yet: neither failed (which invites a retry) nor done.
    expect(await toolResults(h, id)).toEqual([]);
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 1 });
    expect(h.model.requests).toHaveLength(1);
  });

  it('asks again when a run the user chose to repeat is unknown again, rather than running a third time', async () => {
    const tool = scriptedTool('post', sentButNoAnswer);
    const h = harness([post('hello'), { text: 'Noted.' }], { tools: [tool] });
    const id = await say(h, null, 'post it');
    const [first] = await pending(h, id);
    h.clock.advance(30_000);
    await h.engine.decide(first!.id, { type: 'choose', option: 'Run again' }, tab('tab-A'));
    await h.engine.whenIdle();

    expect(tool.runs).toHaveLength(2);
    const [second] = await pending(h, id);
    expect(second).toMatchObject({ origin: 'unknown_outcome', status: 'pending' });
    expect(second!.id).not.toBe(first!.id);
    expect(await h.storage.getLedgerEntry(`${id}:call_post`)).toMatchObject({ status: 'unknown', attempts: 2 });

    await h.engine.decide(second!.id, { type: 'choose', option: 'Treat as done' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(tool.runs).toHaveLength(2);
    expect((await toolResults(h, id)).map((m) => m.outcome)).toEqual(['done']);
  });

  it('Stop while a call that is not safe to retry runs: unknown, with the card on the next run', async () => {
    const tool = scriptedTool('post', untilStopped);
    const h = harness([post('hello'), { text: 'Noted.' }], { tools: [tool] });
    const { conversationId: id } = await h.engine.send(null, 'post it');
    await tick();
    expect(tool.runs).toHaveLength(1);
    expect(h.engine.stop(id)).toBe(true);
    await h.engine.whenIdle();

    expect(await h.storage.getLedgerEntry(`${id}:call_post`)).toMatchObject({ status: 'unknown' });
    expect(await toolResults(h, id)).toEqual([]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });

    await h.engine.retry(id);
    await h.engine.whenIdle();
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ origin: 'unknown_outcome' });
    expect(card!.description).toMatch(/Stop/);
    expect(tool.runs).toHaveLength(1);
  });

  it('Stop while a safe-to-retry call runs: it counts as not run, and runs on the next run without asking', async () => {
    const tool = scriptedTool('fetch_page', (run, args, context) => (run === 1 ? untilStopped(run, args, context) : Promise.resolve('the page')), {
      safeToRetry: true,
    });
    const h = harness([{ calls: [{ name: 'fetch_page', args: { text: 'a' }, id: 'call_read' }] }, { text: 'Read it.' }], { tools: [tool] });
    const { conversationId: id } = await h.engine.send(null, 'read it');
    await tick();
    h.engine.stop(id);
    await h.engine.whenIdle();
    expect(await toolResults(h, id)).toEqual([]);
    expect(await h.storage.getLedgerEntry(`${id}:call_read`)).not.toMatchObject({ status: 'failed' });

    await h.engine.retry(id);
    await h.engine.whenIdle();
    expect(tool.runs).toHaveLength(2);
    expect(await h.storage.listPausePoints(id)).toEqual([]);
    expect((await toolResults(h, id)).map((m) => [m.content, m.outcome])).toEqual([['the page', 'done']]);
  });

  it('still records a plain failure as failed', async () => {
    const tool = scriptedTool('post', () => Promise.reject(new Error('HTTP 400: bad request')));
    const h = harness([post('hello'), { text: 'It failed.' }], { tools: [tool] });
    const id = await say(h, null, 'post it');
    expect(await h.storage.getLedgerEntry(`${id}:call_post`)).toMatchObject({ status: 'failed' });
    expect((await toolResults(h, id)).map((m) => m.outcome)).toEqual(['failed']);
  });
});

describe('a retried call passes its gate again', () => {
  /** Tab A approves transfer(500 → edited to 450 for bob) and dies right after the side effect; tab B asks what happened. */
  async function unknownAfterApprovedEdit() {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' }, id: 'call_1' }] }, { text: 'Sent.' }]);
    const tabA = h.openTab('tab-A', { storage: crashableStorage(h.storage, (method: keyof StoragePort) => method === 'finishExecution') });
    const { conversationId: id } = await tabA.send(null, 'pay bob');
    await tabA.whenIdle();
    const [gate] = await pending(h, id);
    h.clock.advance(1_000);
    await tabA.decide(gate!.id, { type: 'approve', editedPayload: { amount: 450, to: 'bob' } }, tab('tab-A'));
    await tabA.whenIdle();
    expect(h.executions).toEqual([{ amount: 450, to: 'bob' }]);

    const tabB = h.openTab('tab-B');
    h.clock.advance(1_000);
    await tabB.recover(id);
    const [question] = await pending(h, id);
    expect(question?.origin).toBe('unknown_outcome');
    h.clock.advance(1_000);
    await tabB.decide(question!.id, { type: 'choose', option: 'Run again' }, tab('tab-B'));
    await tabB.whenIdle();
    return { h, id, tabB, gate: gate! };
  }

  it('"Run again" asks the gate afresh with the arguments it ran with, and runs only on approve', async () => {
    const { h, id, tabB, gate } = await unknownAfterApprovedEdit();
    expect(h.executions).toHaveLength(1);
    const [retry] = await pending(h, id);
    expect(retry).toMatchObject({ origin: 'gate', toolCallId: 'call_1', payload: { amount: 450, to: 'bob' }, title: 'Send 450 to bob?' });
    expect(retry!.id).not.toBe(gate.id);
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 1 });

    await tabB.decide(retry!.id, { type: 'approve' }, tab('tab-B'));
    await tabB.whenIdle();
    expect(h.executions).toEqual([{ amount: 450, to: 'bob' }, { amount: 450, to: 'bob' }]);
    expect(await h.storage.getLedgerEntry(`${id}:call_1`)).toMatchObject({ status: 'succeeded', attempts: 2, args: { amount: 450, to: 'bob' } });
  });

  it('a declined retry is not run', async () => {
    const { h, id, tabB } = await unknownAfterApprovedEdit();
    const [retry] = await pending(h, id);
    await tabB.decide(retry!.id, { type: 'decline', reason: 'it did go through' }, tab('tab-B'));
    await tabB.whenIdle();
    expect(h.executions).toHaveLength(1);
    expect((await toolResults(h, id)).map((m) => m.outcome)).toEqual(['declined']);
  });

  it('an ungated retry whose gate lets the recorded arguments through runs at once', async () => {
    const executions: { amount: number; to: string }[] = [];
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 50, to: 'bob' }, id: 'call_1' }] }, { text: 'Sent.' }], {
      tools: [transferTool(executions)],
    });
    const tabA = h.openTab('tab-A', { storage: crashableStorage(h.storage, (method: keyof StoragePort) => method === 'finishExecution') });
    const { conversationId: id } = await tabA.send(null, 'pay bob');
    await tabA.whenIdle();
    const tabB = h.openTab('tab-B');
    await tabB.recover(id);
    const [question] = await pending(h, id);
    await tabB.decide(question!.id, { type: 'choose', option: 'Run again' }, tab('tab-B'));
    await tabB.whenIdle();
    expect(executions).toHaveLength(2);
    expect(await h.storage.listPausePoints(id)).toHaveLength(1);
  });
});
