import { describe, expect, it } from 'vitest';
import { ASKED_AGAIN, decisionsMadeHere, RUN_AGAIN } from './restored-decisions.ts';
import { UNKNOWN_OUTCOME_OPTIONS } from './settle-open-calls.ts';
import { ledgerId, type PausePoint } from './records/index.ts';
import { harness, pending, say, state, tab, type Harness } from './testing/harness.ts';
import { makeLedgerEntry, makePausePoint } from './testing/make-records.ts';

const transfer = (amount: number, id = 'call_1') => ({ name: 'transfer', args: { amount, to: 'bob' }, id });

/** Writes a decision onto a pending card as a restore would have brought it: decided elsewhere. */
async function decideElsewhere(h: Harness, pause: PausePoint, resolution: unknown, restored: boolean) {
  await h.storage.settlePausePoint(pause.id, (current) => ({
    commit: true,
    pausePoint: { ...current, status: 'resolved', resolution, resolvedAt: 5_000, ...(restored ? { restored: true } : {}) },
    messages: [],
  }));
}

/** A conversation left running by a tab that is gone: what the worker's sweep recovers. */
async function orphan(h: Harness, id: string) {
  await h.storage.updateConversation(id, (c) => ({ ...c, state: { kind: 'running', owner: 'tab-gone', since: 1 } }));
}

/** A model answer with one gated call (500 > 100), its card pending. */
async function gatedCallAsked(h: Harness) {
  const id = await say(h, null, 'pay bob');
  const [card] = await pending(h, id);
  return { id, card: card! };
}

describe('a restored approval of a call that never ran', () => {
  it('is not run when the sweep recovers the conversation: a fresh card asks again, and the model is not called', async () => {
    const h = harness([{ calls: [transfer(500)] }, { text: 'Sent.' }]);
    const { id, card } = await gatedCallAsked(h);
    await decideElsewhere(h, card, 'approve', true);
    await orphan(h, id);

    const tabB = h.openTab('tab-B');
    expect(await tabB.recover(id)).toBe(true);
    await tabB.whenIdle();

    expect(h.executions).toEqual([]);
    expect(h.model.requests).toHaveLength(1);
    const [fresh] = await pending(h, id);
    expect(fresh).toMatchObject({ origin: 'gate', toolCallId: 'call_1', payload: { amount: 500, to: 'bob' }, title: 'Send 500 to bob?' });
    expect(fresh!.id).not.toBe(card.id);
    expect(fresh!.restored).toBeUndefined();
    expect(fresh!.description).toBe(`${ASKED_AGAIN}\n\nMoney leaves your account.`);
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 1 });
    expect(await h.storage.getLedgerEntry(ledgerId(id, 'call_1'))).toBeUndefined();
  });

  it('runs once, and the model goes on, after a fresh approval in this browser', async () => {
    const h = harness([{ calls: [transfer(500)] }, { text: 'Sent.' }]);
    const { id, card } = await gatedCallAsked(h);
    await decideElsewhere(h, card, 'approve', true);
    await orphan(h, id);
    const tabB = h.openTab('tab-B');
    await tabB.recover(id);
    await tabB.whenIdle();

    const [fresh] = await pending(h, id);
    expect(await tabB.decide(fresh!.id, { type: 'approve' }, tab('tab-B'))).toEqual({ outcome: 'decided' });
    await tabB.whenIdle();

    expect(h.executions).toEqual([{ amount: 500, to: 'bob' }]);
    expect(h.model.requests).toHaveLength(2);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('a fresh decline is told to the model; the restored approval never counts', async () => {
    const h = harness([{ calls: [transfer(500)] }, { text: 'Understood.' }]);
    const { id, card } = await gatedCallAsked(h);
    await decideElsewhere(h, card, 'approve', true);
    await h.engine.run(id);
    const [fresh] = await pending(h, id);
    await h.engine.decide(fresh!.id, { type: 'decline', reason: 'not today' }, tab('tab-A'));
    await h.engine.whenIdle();

    expect(h.executions).toEqual([]);
    expect(h.model.lastMessages().find((m) => m.role === 'tool')?.content).toMatch(/^<tool_result>\nThe user declined this call, so it was not run\. Reason: not today/);
  });

  it('an approval made in this browser still runs at once (no flag, no second card)', async () => {
    const h = harness([{ calls: [transfer(500)] }, { text: 'Sent.' }]);
    const { id, card } = await gatedCallAsked(h);
    await decideElsewhere(h, card, 'approve', false);
    await h.engine.run(id);

    expect(h.executions).toEqual([{ amount: 500, to: 'bob' }]);
    expect(await pending(h, id)).toEqual([]);
  });

  it('a restored decline stands: it only keeps the call from running', async () => {
    const h = harness([{ calls: [transfer(500)] }, { text: 'Understood.' }]);
    const { id, card } = await gatedCallAsked(h);
    await decideElsewhere(h, card, 'decline', true);
    await h.engine.run(id);

    expect(h.executions).toEqual([]);
    expect(await pending(h, id)).toEqual([]);
    expect((await h.storage.listMessages(id)).find((m) => m.role === 'tool')).toMatchObject({ outcome: 'declined' });
  });

  it('a call the ledger says finished is settled from the ledger, not asked again', async () => {
    const h = harness([{ calls: [transfer(500)] }, { text: 'Sent.' }]);
    const { id, card } = await gatedCallAsked(h);
    await decideElsewhere(h, card, 'approve', true);
    await h.storage.putLedgerEntry(
      makeLedgerEntry({ id: ledgerId(id, 'call_1'), conversationId: id, toolCallId: 'call_1', toolName: 'transfer', status: 'succeeded', finishedAt: 6_000, result: 'sent 500 to bob' }),
    );
    await h.engine.run(id);

    expect(h.executions).toEqual([]);
    expect(await pending(h, id)).toEqual([]);
    expect((await h.storage.listMessages(id)).find((m) => m.role === 'tool')).toMatchObject({ content: 'sent 500 to bob', outcome: 'done' });
  });
});

describe('a restored "Run again" after an unknown outcome', () => {
  it('does not run the call again: the user is asked again what happened', async () => {
    const h = harness([{ calls: [transfer(500)] }, { text: 'Done.' }]);
    const { id, card } = await gatedCallAsked(h);
    await decideElsewhere(h, card, 'approve', false);
    await h.storage.putLedgerEntry(
      makeLedgerEntry({ id: ledgerId(id, 'call_1'), conversationId: id, toolCallId: 'call_1', toolName: 'transfer', args: { amount: 500, to: 'bob' }, status: 'unknown' }),
    );
    await h.storage.createPausePoint(
      makePausePoint({ id: 'p-unknown', conversationId: id, toolCallId: 'call_1', toolName: 'transfer', origin: 'unknown_outcome', kind: 'choice', status: 'resolved', resolution: RUN_AGAIN, resolvedAt: 5_000, restored: true }),
    );
    await orphan(h, id);

    await h.openTab('tab-B').recover(id);

    expect(h.executions).toEqual([]);
    const [asked] = await pending(h, id);
    expect(asked).toMatchObject({ origin: 'unknown_outcome', options: [...UNKNOWN_OUTCOME_OPTIONS] });
    expect(asked!.id).not.toBe('p-unknown');
  });
});

describe('decisionsMadeHere', () => {
  const restored = (overrides: Partial<PausePoint>) => makePausePoint({ status: 'resolved', resolvedAt: 1, restored: true, ...overrides });

  it('sets aside only restored decisions that would run a call', () => {
    const approve = restored({ id: 'a', resolution: 'approve' });
    const decline = restored({ id: 'd', resolution: 'decline' });
    const runAgain = restored({ id: 'r', origin: 'unknown_outcome', kind: 'choice', resolution: RUN_AGAIN });
    const skip = restored({ id: 's', origin: 'unknown_outcome', kind: 'choice', resolution: 'Skip' });
    const modelCard = restored({ id: 'm', origin: 'model', resolution: 'approve' });
    const here = makePausePoint({ id: 'h', status: 'resolved', resolution: 'approve', resolvedAt: 1 });
    const expired = restored({ id: 'e', status: 'expired', resolution: null });

    const { pauses } = decisionsMadeHere([approve, decline, runAgain, skip, modelCard, here, expired]);

    expect(pauses.map((p) => p.id)).toEqual(['d', 's', 'm', 'h', 'e']);
  });

  it('explains a question only when an approval was set aside', () => {
    const question = makePausePoint({ id: 'q', description: 'Why.' });
    expect(decisionsMadeHere([makePausePoint()]).explain(question)).toBe(question);
    expect(decisionsMadeHere([restored({ resolution: 'approve' })]).explain(question).description).toBe(`${ASKED_AGAIN}\n\nWhy.`);
  });

  it('knows the unknown-outcome card\'s "Run again" by the same words the card offers', () => {
    expect(UNKNOWN_OUTCOME_OPTIONS[0]).toBe(RUN_AGAIN);
  });
});

describe('a restored approval of the model’s own card', () => {
  it('lets none of the same answer’s other calls run: they are answered, not executed', async () => {
    const h = harness([
      { calls: [{ name: 'wait_for_approval', args: { title: 'May I pay alice?', description: 'Pays alice 50.' }, id: 'call_ask' }, { name: 'transfer', args: { amount: 50, to: 'alice' }, id: 'call_pay' }] },
      { text: 'Understood.' },
    ]);
    const id = await say(h, null, 'pay alice');
    const [card] = await pending(h, id);
    await decideElsewhere(h, card!, 'approve', true);
    await orphan(h, id);

    const tabB = h.openTab('tab-B');
    await tabB.recover(id);
    await tabB.whenIdle();

    expect(h.executions).toEqual([]);
    const held = (await h.storage.listMessages(id)).find((m) => m.role === 'tool' && m.toolCallId === 'call_pay');
    expect(held).toMatchObject({ outcome: 'skipped' });
    expect(held!.role === 'tool' && held!.content).toMatch(/restored backup/);
  });
});
