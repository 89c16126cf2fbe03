import { describe, expect, it } from 'vitest';
import { TIMEOUT_DECIDER_LABEL } from './pause-expiry.ts';
import { harness, pending, say, state, tab } from './testing/harness.ts';

const HOUR = 3_600_000;
/** Settings' `If nobody decides: decline after 1 h`, with no expiry. */
const declineAfterAnHour = { expiryMs: async () => null, declineAfterMs: async () => HOUR };

describe('If nobody decides: decline after', () => {
  it('declines a gated call nobody decided in time: the model is told, nothing runs, and the timeout is on record as the decider', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }, { text: 'Not sent: nobody approved it.' }], {
      settings: declineAfterAnHour,
    });
    const id = await say(h, null, 'pay bob');
    const [gate] = await pending(h, id);
    expect(gate).toMatchObject({ expiresAt: h.clock.now() + HOUR, onTimeout: 'decline' });

    h.clock.advance(HOUR);
    await h.engine.run(id);
    await h.engine.whenIdle();
    expect(await h.storage.getPausePoint(gate!.id)).toMatchObject({
      status: 'resolved',
      resolution: 'decline',
      resolvedAt: h.clock.now(),
      reason: 'Nobody decided within 1 h: declined automatically (Settings: If nobody decides).',
      decidedBy: { label: TIMEOUT_DECIDER_LABEL, via: 'timeout' },
    });
    expect(h.executions).toEqual([]);
    const result = (await h.storage.listMessages(id)).find((m) => m.role === 'tool');
    expect(JSON.stringify(result)).toContain('Nobody decided within 1 h');
    expect(h.model.requests).toHaveLength(2);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('tells the model its own card was declined, in the contract’s form', async () => {
    const h = harness([{ calls: [{ name: 'wait_for_approval', args: { title: 'Book', description: 'Book the room' } }] }, { text: 'Not booked.' }], {
      settings: declineAfterAnHour,
    });
    const id = await say(h, null, 'book');
    h.clock.advance(HOUR + 1);
    await h.engine.run(id);
    await h.engine.whenIdle();
    expect(h.model.lastMessages().at(-1)?.content).toBe('Approval approval: decline - Nobody decided within 1 h: declined automatically (Settings: If nobody decides).');
  });

  it('a person who decides first wins; a press that comes after the time is the timeout’s decline, through the same compare-and-set', async () => {
    const h = harness(
      [{ calls: [{ name: 'transfer', args: { amount: 500, to: 'a' } }] }, { text: 'Sent.' }, { calls: [{ name: 'transfer', args: { amount: 600, to: 'b' } }] }, { text: 'Declined.' }],
      { settings: declineAfterAnHour },
    );
    const id = await say(h, null, 'pay a');
    const [first] = await pending(h, id);
    h.clock.advance(HOUR - 1);
    expect(await h.engine.decide(first!.id, { type: 'approve' }, tab('tab-A'))).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();
    expect(h.executions).toEqual([{ amount: 500, to: 'a' }]);

    await say(h, id, 'pay b');
    const [second] = await pending(h, id);
    h.clock.advance(HOUR);
    // Too late: the card is declined by the timeout in the press's own transaction, and the press is refused.
    expect(await h.engine.decide(second!.id, { type: 'approve' }, tab('tab-A'))).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();
    expect(await h.storage.getPausePoint(second!.id)).toMatchObject({ status: 'resolved', resolution: 'decline', decidedBy: { via: 'timeout' } });
    expect(h.executions).toEqual([{ amount: 500, to: 'a' }]);
  });

  it('keeps waiting by default, and the sooner of expiry and decline decides what happens', async () => {
    const keep = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'a' } }] }], { settings: { expiryMs: async () => null } });
    const [card] = await pending(keep, await say(keep, null, 'pay'));
    expect(card).toMatchObject({ expiresAt: null });
    expect(card?.onTimeout).toBeUndefined();

    const sooner = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'a' } }] }], { settings: { expiryMs: async () => 60_000, declineAfterMs: async () => HOUR } });
    const [expiring] = await pending(sooner, await say(sooner, null, 'pay'));
    expect(expiring).toMatchObject({ expiresAt: sooner.clock.now() + 60_000 });
    expect(expiring?.onTimeout).toBeUndefined();
  });
});
