import { describe, expect, it } from 'vitest';
import { STREAM_WRITE_INTERVAL_MS } from './engine-options.ts';
import type { StoragePort } from './storage-port.ts';
import { crashableStorage } from './testing/crashable-storage.ts';
import { harness, pending, say, state, tab } from './testing/harness.ts';

const MINUTE = 60_000;
const everyMinute = { expiryMs: async () => MINUTE };

describe('expired means expired', () => {
  it('refuses to approve a gated call past its expiry, even before any sweep saw it, and expires the card at once', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }, { text: 'It expired, so nothing was sent.' }], {
      settings: everyMinute,
    });
    const id = await say(h, null, 'pay bob');
    const [gate] = await pending(h, id);
    expect(gate?.expiresAt).toBe(h.clock.now() + MINUTE);

    h.clock.advance(MINUTE);
    expect(await h.engine.decide(gate!.id, { type: 'approve' }, tab('tab-A'))).toEqual({ outcome: 'expired' });
    // Expired in the decision's own transaction: no approval, no decision message.
    expect(await h.storage.getPausePoint(gate!.id)).toMatchObject({ status: 'expired', expiredReason: 'timeout', resolution: null, resolvedAt: h.clock.now() });
    expect((await h.storage.listMessages(id)).filter((m) => m.role === 'user')).toHaveLength(1);

    await h.engine.whenIdle();
    expect(h.executions).toEqual([]);
    expect((await h.storage.listMessages(id)).find((m) => m.role === 'tool')).toMatchObject({ outcome: 'expired' });
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('refuses a late answer to the model’s own card and tells the model it expired', async () => {
    const h = harness([{ calls: [{ name: 'wait_for_approval', args: { title: 'Book', description: 'Book the room' } }] }, { text: 'Not booked.' }], {
      settings: everyMinute,
    });
    const id = await say(h, null, 'book');
    const [card] = await pending(h, id);
    h.clock.advance(MINUTE + 1);
    expect(await h.engine.decide(card!.id, { type: 'decline' }, tab('tab-A'))).toEqual({ outcome: 'expired' });
    await h.engine.whenIdle();
    expect(h.model.lastMessages().at(-1)?.content).toBe('Approval approval: expired - no decision was made before it expired');
    // Deciding again is answered as already expired.
    expect(await h.engine.decide(card!.id, { type: 'approve' }, tab('tab-A'))).toMatchObject({ outcome: 'already_decided', status: 'expired' });
  });

  it('still accepts a decision just before the expiry', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }, { text: 'Sent.' }], { settings: everyMinute });
    const id = await say(h, null, 'pay bob');
    const [gate] = await pending(h, id);
    h.clock.advance(MINUTE - 1);
    expect(await h.engine.decide(gate!.id, { type: 'approve' }, tab('tab-A'))).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();
    expect(h.executions).toEqual([{ amount: 500, to: 'bob' }]);
  });

  it('gives the pause points of a recovered run the configured expiry, though it never called the model', async () => {
    // Tab A stores the answer (its streamed text, so it is not held for the pause) and dies as it stores the gate's question.
    const h = harness([], { settings: everyMinute });
    h.model.push((request) => {
      h.clock.advance(STREAM_WRITE_INTERVAL_MS);
      request.onText('Paying bob.');
      return { content: 'Paying bob.', toolCalls: [{ id: 'call_1', name: 'transfer', arguments: '{"amount":500,"to":"bob"}' }], finishReason: 'tool_calls' };
    });
    const tabAStorage = crashableStorage(h.storage, (method: keyof StoragePort) => method === 'pauseConversation');
    const tabA = h.openTab('tab-A', { storage: tabAStorage });
    const { conversationId: id } = await tabA.send(null, 'pay bob');
    await tabA.whenIdle();
    expect(tabAStorage.dead).toBe(true);
    h.clock.advance(5_000);

    const tabB = h.openTab('tab-B');
    expect(await tabB.recover(id)).toBe(true);
    const [gate] = await pending(h, id);
    expect(gate).toMatchObject({ origin: 'gate', expiresAt: h.clock.now() + MINUTE });
    expect(h.model.requests).toHaveLength(1);
  });

  it('reads the expiry when a pause point is made, so a changed setting applies to the next card', async () => {
    let minutes: number | null = null;
    const h = harness(
      [{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }, { text: 'ok' }, { calls: [{ name: 'transfer', args: { amount: 600, to: 'bob' } }] }],
      { settings: { expiryMs: async () => (minutes === null ? null : minutes * MINUTE) } },
    );
    const id = await say(h, null, 'pay bob');
    const [first] = await pending(h, id);
    expect(first?.expiresAt).toBeNull();
    await h.engine.decide(first!.id, { type: 'decline' }, tab('tab-A'));
    await h.engine.whenIdle();

    minutes = 5;
    await say(h, id, 'pay bob more');
    const [second] = await pending(h, id);
    expect(second?.expiresAt).toBe(h.clock.now() + 5 * MINUTE);
  });
});
