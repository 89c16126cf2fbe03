import { describe, expect, it } from 'vitest';
import { isPlainApproval } from './plain-approval.ts';
import { makePausePoint } from './testing/make-records.ts';
import { harness, pending, say, state, tab } from './testing/harness.ts';

const transfer = (amount: number, to: string) => ({ name: 'transfer', args: { amount, to } });
/** One answer with two calls the transfer tool's gate holds back (over 100). */
const twoGated = { calls: [transfer(500, 'bob'), transfer(700, 'carol')] };

describe('decideBatch (Approve all, Decline all)', () => {
  it('approves each card with its own decision, one batch id on each, and the answer continues once', async () => {
    const h = harness([twoGated, { text: 'Both sent.' }]);
    const id = await say(h, null, 'pay bob and carol');
    const cards = await pending(h, id);
    expect(cards).toHaveLength(2);

    const result = await h.engine.decideBatch(
      cards.map((c) => c.id),
      { type: 'approve' },
      tab('tab-A'),
    );
    await h.engine.whenIdle();

    expect(result.cards).toEqual(cards.map((c) => ({ pausePointId: c.id, result: { outcome: 'decided' } })));
    const stored = await Promise.all(cards.map((c) => h.storage.getPausePoint(c.id)));
    for (const card of stored) {
      expect(card).toMatchObject({ status: 'resolved', resolution: 'approve', decidedBy: tab('tab-A'), batchId: result.batchId });
    }
    // One decision message per card, as one by one; both calls ran; one model call carried both.
    const decisions = (await h.storage.listMessages(id)).filter((m) => m.role === 'user' && m.decision);
    expect(decisions.map((m) => m.role === 'user' && m.decision?.pausePointId)).toEqual(cards.map((c) => c.id));
    expect(h.executions).toEqual([
      { amount: 500, to: 'bob' },
      { amount: 700, to: 'carol' },
    ]);
    expect(h.model.requests).toHaveLength(2);
    const toolResults = h.model.lastMessages().filter((m) => m.role === 'tool');
    expect(toolResults.map((m) => m.content)).toEqual([expect.stringContaining('sent 500 to bob'), expect.stringContaining('sent 700 to carol')]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('skips a card another tab decided meanwhile: its compare-and-set refuses it, the rest are decided', async () => {
    const h = harness([twoGated, { text: 'Done.' }]);
    const id = await say(h, null, 'pay bob and carol');
    const [first, second] = await pending(h, id);
    const other = h.openTab('tab-B');

    // The other tab declines carol's transfer after this tab's dialog listed it, before Approve all.
    expect(await other.decide(second!.id, { type: 'decline', reason: 'not carol' }, tab('tab-B'))).toEqual({ outcome: 'decided' });
    const result = await h.engine.decideBatch([first!.id, second!.id], { type: 'approve' }, tab('tab-A'));
    await Promise.all([h.engine.whenIdle(), other.whenIdle()]);

    expect(result.cards).toEqual([
      { pausePointId: first!.id, result: { outcome: 'decided' } },
      { pausePointId: second!.id, result: { outcome: 'already_decided', status: 'resolved', decidedBy: tab('tab-B') } },
    ]);
    expect(await h.storage.getPausePoint(first!.id)).toMatchObject({ resolution: 'approve', batchId: result.batchId });
    // The other tab's decision stands untouched: no batch id, its own reason.
    const kept = await h.storage.getPausePoint(second!.id);
    expect(kept).toMatchObject({ resolution: 'decline', reason: 'not carol', decidedBy: tab('tab-B') });
    expect(kept).not.toHaveProperty('batchId');
    expect(h.executions).toEqual([{ amount: 500, to: 'bob' }]);
    expect(h.model.requests).toHaveLength(2);
  });

  it('declines each card with one reason for all, and the model is told for each', async () => {
    const h = harness([twoGated, { text: 'Understood.' }]);
    const id = await say(h, null, 'pay bob and carol');
    const cards = await pending(h, id);

    const result = await h.engine.decideBatch(
      cards.map((c) => c.id),
      { type: 'decline', reason: 'No payments today' },
      tab('tab-A'),
    );
    await h.engine.whenIdle();

    for (const card of await Promise.all(cards.map((c) => h.storage.getPausePoint(c.id)))) {
      expect(card).toMatchObject({ resolution: 'decline', reason: 'No payments today', batchId: result.batchId });
    }
    expect(h.executions).toEqual([]);
    const toolResults = h.model.lastMessages().filter((m) => m.role === 'tool');
    expect(toolResults).toHaveLength(2);
    for (const m of toolResults) expect(m.content).toContain('No payments today');
    expect(h.model.requests).toHaveLength(2);
  });

  it('reports a card that is gone, and decides each card once however often it is listed', async () => {
    const h = harness([twoGated, { text: 'ok' }]);
    const id = await say(h, null, 'pay');
    const [first, second] = await pending(h, id);
    const result = await h.engine.decideBatch([first!.id, 'nope', first!.id, second!.id], { type: 'approve' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(result.cards.map((c) => [c.pausePointId, c.result.outcome])).toEqual([
      [first!.id, 'decided'],
      ['nope', 'not_found'],
      [second!.id, 'decided'],
    ]);
  });
});

describe('isPlainApproval', () => {
  it('is a pending approval of the model or a gate, nothing else', () => {
    expect(isPlainApproval(makePausePoint())).toBe(true);
    expect(isPlainApproval(makePausePoint({ origin: 'model', toolName: 'wait_for_approval' }))).toBe(true);
    expect(isPlainApproval(makePausePoint({ kind: 'choice', options: ['a', 'b'], origin: 'model' }))).toBe(false);
    expect(isPlainApproval(makePausePoint({ kind: 'data_entry', origin: 'model' }))).toBe(false);
    expect(isPlainApproval(makePausePoint({ origin: 'elicitation' }))).toBe(false);
    expect(isPlainApproval(makePausePoint({ origin: 'limit' }))).toBe(false);
    expect(isPlainApproval(makePausePoint({ origin: 'unknown_outcome', kind: 'choice' }))).toBe(false);
    expect(isPlainApproval(makePausePoint({ status: 'resolved', resolution: 'approve' }))).toBe(false);
  });
});
