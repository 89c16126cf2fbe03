import { describe, expect, it } from 'vitest';
import type { StoragePort } from './storage-port.ts';
import { crashableStorage } from './testing/crashable-storage.ts';
import type { ScriptedCall } from './testing/scripted-model.ts';
import { harness, pending, say, state, tab, type Harness } from './testing/harness.ts';

const ask = (title: string, extra: Record<string, unknown> = {}, id?: string): ScriptedCall => ({
  name: 'wait_for_approval',
  args: { title, description: 'Pays alice 50 from the household account.', ...extra },
  id,
});
const transfer = (amount: number, to = 'alice', id?: string): ScriptedCall => ({ name: 'transfer', args: { amount, to }, id });

async function toolResults(h: Harness, conversationId: string) {
  return (await h.storage.listMessages(conversationId)).filter((m) => m.role === 'tool');
}

describe('nothing runs beside a pending wait_for_approval', () => {
  it('holds the other calls of the answer until the card is approved, then runs them', async () => {
    const h = harness([{ calls: [ask('May I pay alice?'), transfer(50, 'alice', 'call_pay')] }, { text: 'Paid.' }]);
    const id = await say(h, null, 'pay alice');

    expect(h.executions).toEqual([]);
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ origin: 'model', title: 'May I pay alice?' });
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 1 });
    expect((await toolResults(h, id)).map((m) => m.toolCallId)).not.toContain('call_pay');

    await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(h.executions).toEqual([{ amount: 50, to: 'alice' }]);
    expect(h.model.requests).toHaveLength(2);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('holds calls written before the card in the same answer too', async () => {
    const h = harness([{ calls: [transfer(50, 'alice'), ask('May I pay alice?')] }, { text: 'Paid.' }]);
    const id = await say(h, null, 'pay alice');
    expect(h.executions).toEqual([]);
    const [card] = await pending(h, id);
    await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(h.executions).toEqual([{ amount: 50, to: 'alice' }]);
  });

  it('on decline, answers each held call that it was not run because the user declined the card', async () => {
    const h = harness([{ calls: [ask('May I pay alice?'), transfer(50, 'alice', 'call_pay'), transfer(500, 'bob', 'call_big')] }, { text: 'OK, I will not.' }]);
    const id = await say(h, null, 'pay alice');
    const [card] = await pending(h, id);
    await h.engine.decide(card!.id, { type: 'decline', reason: 'not this month' }, tab('tab-A'));
    await h.engine.whenIdle();

    expect(h.executions).toEqual([]);
    // The gated call never asked: the answer it belonged to was declined.
    expect(await h.storage.listPausePoints(id)).toHaveLength(1);
    const held = (await toolResults(h, id)).filter((m) => m.toolName === 'transfer');
    expect(held.map((m) => [m.toolCallId, m.content, m.outcome])).toEqual([
      ['call_pay', 'Not run: the user declined “May I pay alice?”.', 'declined'],
      ['call_big', 'Not run: the user declined “May I pay alice?”.', 'declined'],
    ]);
    expect(h.model.lastMessages().at(-1)).toEqual({ role: 'user', content: 'Approval approval: decline - not this month' });
  });

  it('asks a held gated call’s own question only once the card is approved', async () => {
    const h = harness([{ calls: [ask('May I pay bob?'), transfer(500, 'bob')] }, { text: 'Paid.' }]);
    const id = await say(h, null, 'pay bob');
    const [card] = await pending(h, id);
    expect((await pending(h, id)).map((p) => p.origin)).toEqual(['model']);

    await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(h.executions).toEqual([]);
    const [gate] = await pending(h, id);
    expect(gate).toMatchObject({ origin: 'gate', payload: { amount: 500, to: 'bob' } });
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 1 });

    await h.engine.decide(gate!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(h.executions).toEqual([{ amount: 500, to: 'bob' }]);
  });

  it('waits for every card of the answer', async () => {
    const h = harness([{ calls: [ask('First?'), ask('Second?'), transfer(50)] }, { text: 'Paid.' }]);
    const id = await say(h, null, 'pay');
    const [first, second] = await pending(h, id);
    await h.engine.decide(first!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(h.executions).toEqual([]);
    await h.engine.decide(second!.id, { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(h.executions).toEqual([{ amount: 50, to: 'alice' }]);
  });

  it('does not run calls of an answer whose card timed out', async () => {
    const h = harness([{ calls: [ask('May I pay alice?'), transfer(50)] }, { text: 'It expired.' }], { settings: { expiryMs: async () => 60_000 } });
    const id = await say(h, null, 'pay');
    h.clock.advance(60_001);
    await h.engine.run(id);
    expect(h.executions).toEqual([]);
    const held = (await toolResults(h, id)).find((m) => m.toolName === 'transfer');
    expect(held).toMatchObject({
      content: 'Not run: the approval request “May I pay alice?” expired because no decision was made before it expired.',
      outcome: 'expired',
    });
  });

  it('does not run calls of an answer whose card the user moved on from', async () => {
    const h = harness([{ calls: [ask('May I pay alice?'), transfer(50)] }, { text: 'Something else, then.' }]);
    const id = await say(h, null, 'pay');
    await say(h, id, 'never mind');
    expect(h.executions).toEqual([]);
    expect((await toolResults(h, id)).find((m) => m.toolName === 'transfer')?.content).toBe(
      'Not run: the approval request “May I pay alice?” expired because the user sent a new message instead of deciding.',
    );
  });

  it('goes on when the card was decided after its tab died before storing the card’s result', async () => {
    const h = harness([{ calls: [ask('May I pay alice?'), transfer(50)] }, { text: 'Paid.' }]);
    const tabA = h.openTab('tab-A', { storage: crashableStorage(h.storage, (method: keyof StoragePort) => method === 'finishExecution') });
    const { conversationId: id } = await tabA.send(null, 'pay alice');
    await tabA.whenIdle();
    const [card] = await pending(h, id);
    expect(h.executions).toEqual([]);

    const tabB = h.openTab('tab-B');
    expect(await tabB.decide(card!.id, { type: 'approve' }, tab('tab-B'))).toEqual({ outcome: 'decided' });
    await tabB.whenIdle();
    expect(h.executions).toEqual([{ amount: 50, to: 'alice' }]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('does not run calls made before the user’s choice or edit was known', async () => {
    const h = harness([
      { calls: [ask('Which account?', { options: ['Household', 'Savings'] }), transfer(50, 'alice', 'call_choice')] },
      { calls: [ask('Pay this?', { payload: { amount: 50 } }), transfer(50, 'alice', 'call_edit')] },
      { text: 'Understood.' },
    ]);
    const id = await say(h, null, 'pay');
    const [choice] = await pending(h, id);
    await h.engine.decide(choice!.id, { type: 'choose', option: 'Savings' }, tab('tab-A'));
    await h.engine.whenIdle();
    const [edit] = await pending(h, id);
    await h.engine.decide(edit!.id, { type: 'approve', editedPayload: { amount: 20 } }, tab('tab-A'));
    await h.engine.whenIdle();

    expect(h.executions).toEqual([]);
    const held = (await toolResults(h, id)).filter((m) => m.toolName === 'transfer');
    expect(held.map((m) => [m.toolCallId, m.outcome])).toEqual([
      ['call_choice', 'skipped'],
      ['call_edit', 'skipped'],
    ]);
    expect(held[0]!.content).toMatch(/^Not run: it was made in the same answer as the question “Which account\?”, before the user answered/);
    expect(held[1]!.content).toMatch(/^Not run: the user edited “Pay this\?” before approving/);
  });
});
