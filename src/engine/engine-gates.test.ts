import { describe, expect, it, vi } from 'vitest';
import { definitionHash } from './definition-hash.ts';
import { wrapToolResult } from './tool-result-envelope.ts';
import { harness, pending, say, state, tab, transferTool } from './testing/harness.ts';
import { ToolRegistry } from './tool-registry.ts';

const transfer = (amount: number, to = 'alice', id?: string) => ({ name: 'transfer', args: { amount, to }, id });

describe('per-call approval gates', () => {
  it('lets an ungated call run and holds a gated call of the same tool', async () => {
    const h = harness([{ calls: [transfer(50)] }, { calls: [transfer(500)] }]);
    const id = await say(h, null, 'pay');
    expect(h.executions).toEqual([{ amount: 50, to: 'alice' }]);

    const [pause] = await pending(h, id);
    expect(pause).toMatchObject({ origin: 'gate', kind: 'approval', toolName: 'transfer', payload: { amount: 500, to: 'alice' }, title: 'Send 500 to alice?' });
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 1 });
    // The card says which definition of the tool it is about (for the audit log), rules or none.
    const [spec] = new ToolRegistry([transferTool([])]).specs;
    expect(pause?.definitionHash).toBe(await definitionHash(spec!.function));
    expect(pause?.mcp).toBeUndefined();
  });

  it('runs an approved call once, and never asks again on the continuation', async () => {
    const h = harness([{ calls: [transfer(500, 'bob', 'call_big')] }, { text: 'Done.' }]);
    const id = await say(h, null, 'pay bob');
    const [pause] = await pending(h, id);
    await h.engine.decide(pause!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    await h.engine.run(id);

    expect(h.executions).toEqual([{ amount: 500, to: 'bob' }]);
    expect(await h.storage.listPausePoints(id)).toHaveLength(1);
    const messages = h.model.lastMessages();
    // The tool result comes right after its call, then the decision message: the order the API requires.
    expect(messages.slice(-3)).toEqual([
      expect.objectContaining({ role: 'assistant', tool_calls: [expect.objectContaining({ id: 'call_big' })] }),
      { role: 'tool', tool_call_id: 'call_big', content: wrapToolResult('sent 500 to bob') },
      { role: 'user', content: 'Approval approval: approve\nPayload: {"amount":500,"to":"bob"}' },
    ]);
  });

  it('runs with edited arguments, re-validated, and tells the model they were edited', async () => {
    const h = harness([{ calls: [transfer(500, 'bob')] }, { text: 'Sent the corrected amount.' }]);
    const id = await say(h, null, 'pay bob');
    const [pause] = await pending(h, id);

    const refused = await h.engine.decide(pause!.id, { type: 'approve', editedPayload: { amount: -5, to: 'bob' } }, tab('tab-A'));
    expect(refused).toMatchObject({ outcome: 'invalid', message: expect.stringContaining('amount') });
    expect(h.executions).toEqual([]);

    await h.engine.decide(pause!.id, { type: 'approve', editedPayload: { amount: 450, to: 'bob' } }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(h.executions).toEqual([{ amount: 450, to: 'bob' }]);
    const result = h.model.lastMessages().find((m) => m.role === 'tool');
    expect(result?.content).toBe(wrapToolResult('The user edited the arguments before approving. Final arguments: {"amount":450,"to":"bob"}\n\nsent 450 to bob'));
  });

  it('gives the model an explicit rejection with the reason on decline, and runs nothing', async () => {
    const h = harness([{ calls: [transfer(900, 'mallory')] }, { text: 'I will not send it.' }]);
    const id = await say(h, null, 'pay');
    const [pause] = await pending(h, id);
    await h.engine.decide(pause!.id, { type: 'decline', reason: 'unknown recipient' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(h.executions).toEqual([]);
    const result = h.model.lastMessages().find((m) => m.role === 'tool');
    expect(result?.content).toMatch(/^<tool_result>\nThe user declined this call, so it was not run\. Reason: unknown recipient/);
    const stored = (await h.storage.listMessages(id)).find((m) => m.role === 'tool');
    expect(stored).toMatchObject({ outcome: 'declined' });
  });

  it('pauses each gated call of one message separately and resumes only when all are decided', async () => {
    const h = harness([{ calls: [transfer(10, 'a'), transfer(200, 'b'), transfer(300, 'c')] }, { text: 'All done.' }]);
    const id = await say(h, null, 'pay everyone');
    expect(h.executions).toEqual([{ amount: 10, to: 'a' }]);
    const pauses = await pending(h, id);
    expect(pauses.map((p) => p.payload)).toEqual([{ amount: 200, to: 'b' }, { amount: 300, to: 'c' }]);
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 2 });

    // Each decision moves the stored state with it: every tab shows the count at once. (The run the
    // decision starts under its lock may already be running the approved call when decide resolves.)
    const settle = vi.spyOn(h.storage, 'settleAndLoadStep');
    await h.engine.decide(pauses[0]!.id, { type: 'approve' }, tab('tab-A'));
    expect((await settle.mock.results[0]!.value).step.conversation.state).toEqual({ kind: 'paused', pending: 1 });
    await h.engine.whenIdle();
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 1 });
    expect(h.model.requests).toHaveLength(1);

    await h.engine.decide(pauses[1]!.id, { type: 'decline' }, tab('tab-A'));
    expect(await state(h, id)).toMatchObject({ kind: 'running', owner: 'tab-A' });
    await h.engine.whenIdle();
    expect(h.executions).toEqual([{ amount: 10, to: 'a' }, { amount: 200, to: 'b' }]);
    expect(h.model.requests).toHaveLength(2);
    expect(h.model.lastMessages().filter((m) => m.role === 'tool')).toHaveLength(3);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('executes once when two tabs race to approve the same gated call', async () => {
    for (let round = 0; round < 10; round++) {
      const h = harness([{ calls: [transfer(500)] }, { text: 'ok' }]);
      const id = await say(h, null, 'pay');
      const [pause] = await pending(h, id);
      const tabB = h.openTab('tab-B');
      await Promise.all([
        h.engine.decide(pause!.id, { type: 'approve' }, tab('tab-A')),
        tabB.decide(pause!.id, { type: 'approve' }, tab('tab-B')),
      ]);
      await Promise.all([h.engine.whenIdle(), tabB.whenIdle(), h.engine.run(id), tabB.run(id)]);
      expect(h.executions).toHaveLength(1);
      expect(h.model.requests).toHaveLength(2);
    }
  });

  it('tells the model a gated call was not run when the user moved on', async () => {
    const h = harness([{ calls: [transfer(500)] }, { text: 'fine' }]);
    const id = await say(h, null, 'pay');
    await say(h, id, 'forget it');
    expect(h.executions).toEqual([]);
    const tool = h.model.lastMessages().find((m) => m.role === 'tool');
    expect(tool?.content).toBe(wrapToolResult('Not run: the approval request expired because the user sent a new message instead of deciding.'));
  });
});

describe('call ids reused by the endpoint', () => {
  it('never lets a new call inherit an earlier call\'s approval', async () => {
    // Some compatible endpoints number calls call_0, call_1… afresh every turn.
    const h = harness([{ calls: [transfer(500, 'bob', 'call_0')] }, { text: 'sent' }, { calls: [transfer(900, 'eve', 'call_0')] }]);
    const id = await say(h, null, 'pay bob');
    const [first] = await pending(h, id);
    await h.engine.decide(first!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    await say(h, id, 'now pay eve');

    expect(h.executions).toEqual([{ amount: 500, to: 'bob' }]);
    const [second] = await pending(h, id);
    expect(second).toMatchObject({ payload: { amount: 900, to: 'eve' }, status: 'pending' });
    expect(second!.toolCallId).not.toBe('call_0');
  });
});

describe('malformed calls', () => {
  it('turns invalid JSON, schema failures and unknown tools into results the model can correct', async () => {
    const h = harness([
      { calls: [{ name: 'transfer', args: null }], rawArguments: '{"amount": 5, "to": ' },
      { calls: [{ name: 'transfer', args: { amount: 'five' } }] },
      { calls: [{ name: 'constructor', args: {} }] },
      { text: 'Sorry.' },
    ]);
    const id = await say(h, null, 'pay');
    const results = (await h.storage.listMessages(id)).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toMatch(/^Error: the arguments for transfer are not valid JSON/);
    expect(results[1]).toMatch(/^Error: invalid arguments for transfer: amount: .*; to: /);
    expect(results[2]).toBe('Error: there is no tool named "constructor". Available tools: wait_for_approval, transfer.');
    expect(h.executions).toEqual([]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('stops at the step limit with a clear message and can continue', async () => {
    const h = harness(
      [{ calls: [transfer(1)] }, { calls: [transfer(2)] }, { calls: [transfer(3)] }, { text: 'finally' }],
      { maxSteps: 2 },
    );
    const id = await say(h, null, 'loop');
    expect(await state(h, id)).toMatchObject({ kind: 'error', code: 'step_limit', retryable: true });
    expect((await h.storage.listMessages(id)).at(-1)).toMatchObject({ role: 'notice', content: expect.stringContaining('Stopped after 2 model calls') });
    await h.engine.retry(id);
    await h.engine.whenIdle();
    expect(await state(h, id)).toEqual({ kind: 'idle' });
    expect(h.executions.map((e) => e.amount)).toEqual([1, 2, 3]);
  });
});
