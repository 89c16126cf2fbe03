import { describe, expect, it } from 'vitest';
import type { StoragePort } from './storage-port.ts';
import type { Message } from './records/index.ts';
import { crashableStorage, SimulatedCrash } from './testing/crashable-storage.ts';
import { harness, pending, state, streamThenDie, tab, type Harness } from './testing/harness.ts';
import type { ScriptedTurn } from './testing/scripted-model.ts';

type CrashPoint = Parameters<typeof crashableStorage>[1];

/**
 * Tab A dies at `crashAt`; tab B (same storage, same locks) then recovers the
 * conversation as a freshly opened tab would.
 */
async function crashThenRecover(crashAt: CrashPoint, turns: ScriptedTurn[] | ((h: Harness) => ScriptedTurn[])) {
  const h = harness();
  h.model.push(...(typeof turns === 'function' ? turns(h) : turns));
  const tabAStorage = crashableStorage(h.storage, crashAt);
  const tabA = h.openTab('tab-A', { storage: tabAStorage });
  const id = await tabA.createConversation();
  await tabA.send(id, 'pay bob 500').catch(() => undefined);
  await tabA.whenIdle();
  expect(tabAStorage.dead).toBe(true);
  expect(await state(h, id)).toMatchObject({ kind: 'running', owner: 'tab-A' });

  const tabB = h.openTab('tab-B');
  expect(await tabB.recover(id)).toBe(true);
  await tabB.whenIdle();
  return { h, id, tabB };
}

const isAppendOf = (role: Message['role']) => (method: keyof StoragePort, args: unknown[]) =>
  method === 'appendMessages' && (args[1] as { role: string }[])[0]?.role === role;

/** The first storage call after a tool's side effect: its ledger entry and result, stored together. */
const afterTheSideEffect = (method: keyof StoragePort) => method === 'finishExecution';

describe('recovery after a tab dies mid-turn', () => {
  it('before the model call: the turn is simply made', async () => {
    // The message is stored, with the run's first step read in its transaction; the tab dies as it builds its model call.
    const h = harness([{ text: 'Hello from the recovered tab.' }]);
    let died = false;
    const tabAStorage = crashableStorage(h.storage, () => died);
    const tabA = h.openTab('tab-A', {
      storage: tabAStorage,
      model: () => {
        died = true;
        throw new SimulatedCrash('tab died before its model call');
      },
    });
    const id = await tabA.createConversation();
    await tabA.send(id, 'pay bob 500');
    await tabA.whenIdle();
    expect(await state(h, id)).toMatchObject({ kind: 'running', owner: 'tab-A' });
    const tabB = h.openTab('tab-B');
    expect(await tabB.recover(id)).toBe(true);
    await tabB.whenIdle();
    expect(h.model.requests).toHaveLength(1);
    expect((await h.storage.listMessages(id)).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('after the model answered, before its answer was stored: the question is asked again, and answered once', async () => {
    const { h, id } = await crashThenRecover(isAppendOf('assistant'), [{ text: 'Lost with the tab.' }, { text: 'Hello from the recovered tab.' }]);
    expect(h.model.requests).toHaveLength(2);
    expect((await h.storage.listMessages(id)).map((m) => [m.role, m.content])).toEqual([
      ['user', 'pay bob 500'],
      ['assistant', 'Hello from the recovered tab.'],
    ]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('mid-stream: the partial text is kept and marked interrupted, and the turn is retried', async () => {
    const { h, id } = await crashThenRecover(
      // The tab dies as it tries to store anything past the first streamed snapshot.
      (method, args) => method === 'putMessage' && String((args[0] as Message).content).includes('lost'),
      (h) => [streamThenDie(h, 'tab closed mid-stream'), { text: 'Full answer.' }],
    );
    const messages = await h.storage.listMessages(id);
    expect(messages.map((m) => [m.role, m.content, 'status' in m ? m.status : undefined])).toEqual([
      ['user', 'pay bob 500', undefined],
      ['assistant', 'Partial text', 'interrupted'],
      ['notice', expect.stringContaining('interrupted'), undefined],
      ['assistant', 'Full answer.', 'complete'],
    ]);
  });

  it('mid-execution: the call is not run again; the user is asked, and "Treat as done" never runs it', async () => {
    const started: string[] = [];
    const { h, id, tabB } = await crashThenRecover(
      afterTheSideEffect,
      [{ calls: [{ name: 'transfer', args: { amount: 50, to: 'bob' }, id: 'call_1' }] }, { text: 'Noted.' }],
    );
    started.push(...h.executions.map((e) => e.to));
    expect(started).toEqual(['bob']);
    const [question] = await pending(h, id);
    expect(question).toMatchObject({ origin: 'unknown_outcome', kind: 'choice', options: ['Run again', 'Treat as done', 'Skip'], payload: { amount: 50, to: 'bob' } });
    expect(await h.storage.getLedgerEntry(`${id}:call_1`)).toMatchObject({ status: 'unknown' });

    await tabB.decide(question!.id, { type: 'choose', option: 'Treat as done' }, tab('tab-B'));
    await tabB.whenIdle();
    expect(h.executions).toHaveLength(1);
    expect(h.model.lastMessages().find((m) => m.role === 'tool')?.content).toMatch(/confirmed this action completed/);
  });

  it('mid-execution: "Run again" runs it exactly once more, by the user\'s choice', async () => {
    const { h, id, tabB } = await crashThenRecover(
      afterTheSideEffect,
      [{ calls: [{ name: 'transfer', args: { amount: 50, to: 'bob' }, id: 'call_1' }] }, { text: 'Sent.' }],
    );
    const [question] = await pending(h, id);
    await tabB.decide(question!.id, { type: 'choose', option: 'Run again' }, tab('tab-B'));
    await tabB.whenIdle();
    await tabB.run(id);
    expect(h.executions).toHaveLength(2);
    expect(await h.storage.getLedgerEntry(`${id}:call_1`)).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('a finished ledger entry without its result (stored apart by an earlier version): the stored outcome is used, nothing runs twice', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 50, to: 'bob' }, id: 'call_1' }] }, { text: 'Sent.' }]);
    const tabA = h.openTab('tab-A', { storage: crashableStorage(h.storage, afterTheSideEffect) });
    const id = await tabA.createConversation();
    await tabA.send(id, 'pay bob 500');
    await tabA.whenIdle();
    // What an earlier version wrote first, before the result message it then failed to write.
    const started = await h.storage.getLedgerEntry(`${id}:call_1`);
    await h.storage.putLedgerEntry({ ...started!, status: 'succeeded', finishedAt: h.clock.now(), result: 'sent 50 to bob' });

    const tabB = h.openTab('tab-B');
    expect(await tabB.recover(id)).toBe(true);
    await tabB.whenIdle();
    expect(h.executions).toHaveLength(1);
    const tool = (await h.storage.listMessages(id)).find((m) => m.role === 'tool');
    expect(tool).toMatchObject({ content: 'sent 50 to bob', outcome: 'done' });
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('after an approval, mid-execution of the approved call: asks instead of re-running', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' }, id: 'call_1' }] }, { text: 'ok' }]);
    const tabAStorage = crashableStorage(h.storage, afterTheSideEffect);
    const tabA = h.openTab('tab-A', { storage: tabAStorage });
    const { conversationId: id } = await tabA.send(null, 'pay');
    await tabA.whenIdle();
    const [gate] = await pending(h, id);
    await tabA.decide(gate!.id, { type: 'approve' }, tab('tab-A'));
    await tabA.whenIdle();
    expect(h.executions).toHaveLength(1);

    const tabB = h.openTab('tab-B');
    await tabB.recover(id);
    const [question] = await pending(h, id);
    expect(question?.origin).toBe('unknown_outcome');
    await tabB.decide(question!.id, { type: 'choose', option: 'Skip' }, tab('tab-B'));
    await tabB.whenIdle();
    expect(h.executions).toHaveLength(1);
    expect(h.model.lastMessages().find((m) => m.role === 'tool')?.content).toMatch(/^<tool_result>\nNot run: the user chose to skip/);
  });

  it('does not take over a conversation whose owner is alive', async () => {
    let release!: () => void;
    const h = harness([() => new Promise((resolve) => (release = () => resolve({ content: 'done', toolCalls: [], finishReason: 'stop' })))]);
    const { conversationId: id } = await h.engine.send(null, 'hi');
    await new Promise((resolve) => setTimeout(resolve, 10));
    const tabB = h.openTab('tab-B');
    expect(await tabB.recover(id)).toBe(false);
    release();
    await h.engine.whenIdle();
    expect(h.model.requests).toHaveLength(1);
  });
});
