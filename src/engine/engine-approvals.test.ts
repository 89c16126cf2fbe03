import { describe, expect, it } from 'vitest';
import { APPROVAL_MARKER } from './marker.ts';
import { harness, pending, say, state, tab } from './testing/harness.ts';

const wait = (args: Record<string, unknown>) => ({ calls: [{ name: 'wait_for_approval', args }] });

describe('wait_for_approval', () => {
  it('stores a pause point, returns the marker, pauses, and resumes with the decision in the history', async () => {
    const h = harness([
      wait({ title: 'Send the campaign', description: '**1,204** recipients; cannot be unsent.', payload: { list: 'newsletter' } }),
      { text: 'Sent.' },
    ]);
    const id = await say(h, null, 'send the newsletter');

    const [pause] = await pending(h, id);
    expect(pause).toMatchObject({
      conversationId: id,
      turnIndex: 0,
      title: 'Send the campaign',
      description: '**1,204** recipients; cannot be unsent.',
      options: null,
      payload: { list: 'newsletter' },
      kind: 'approval',
      status: 'pending',
      resolution: null,
      origin: 'model',
      toolName: 'wait_for_approval',
      expiresAt: null,
    });
    const toolMessage = (await h.storage.listMessages(id)).find((m) => m.role === 'tool');
    expect(toolMessage?.content).toBe(`${APPROVAL_MARKER}${pause!.id}`);
    expect(await state(h, id)).toEqual({ kind: 'paused', pending: 1 });
    expect(h.model.requests).toHaveLength(1);

    expect(await h.engine.decide(pause!.id, { type: 'approve', reply: 'go ahead' }, tab('tab-A'))).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();

    const decided = await h.storage.getPausePoint(pause!.id);
    expect(decided).toMatchObject({ status: 'resolved', resolution: 'approve', reason: 'go ahead', decidedBy: tab('tab-A') });
    expect(decided?.resolvedAt).toBe(h.clock.now());
    expect(h.model.requests).toHaveLength(2);
    expect(h.model.lastMessages().at(-1)).toEqual({
      role: 'user',
      content: 'Approval approval: approve - go ahead\nPayload: {"list":"newsletter"}',
    });
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('answers a missing title or description with an error the model can correct, without pausing', async () => {
    const h = harness([wait({ title: 'No description' }), wait({ title: 'Fixed', description: 'Now complete.' })]);
    const id = await say(h, null, 'go');
    const second = h.model.requests[1]!.messages;
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/^<tool_result>\nError: both title and description are required/) });
    expect(await pending(h, id)).toHaveLength(1);
    expect((await pending(h, id))[0]!.title).toBe('Fixed');
  });

  it('keeps at most 8 options, cuts over-long values, and defaults the kind to choice', async () => {
    const options = Array.from({ length: 12 }, (_, i) => `Option ${i + 1}`);
    const h = harness([wait({ title: 'T'.repeat(500), description: 'Pick one', options }), { text: 'ok' }]);
    const id = await say(h, null, 'go');
    const [pause] = await pending(h, id);
    expect(pause?.kind).toBe('choice');
    expect(pause?.options).toEqual(options.slice(0, 8));
    expect(pause?.title).toHaveLength(200);

    expect(await h.engine.decide(pause!.id, { type: 'choose', option: 'Option 11' }, tab('tab-A'))).toMatchObject({ outcome: 'invalid' });
    expect(await h.engine.decide(pause!.id, { type: 'approve' }, tab('tab-A'))).toMatchObject({ outcome: 'invalid' });
    expect(await h.engine.decide(pause!.id, { type: 'choose', option: 'Option 3' }, tab('tab-A'))).toEqual({ outcome: 'decided' });
    await h.engine.whenIdle();
    expect(h.model.lastMessages().at(-1)).toEqual({ role: 'user', content: 'Approval choice: Option 3' });
  });

  it('declines with a reason the model reads', async () => {
    const h = harness([wait({ title: 'Charge card', description: '$40' }), { text: 'Understood.' }]);
    const id = await say(h, null, 'charge');
    const [pause] = await pending(h, id);
    await h.engine.decide(pause!.id, { type: 'decline', reason: 'too expensive' }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(h.model.lastMessages().at(-1)).toEqual({ role: 'user', content: 'Approval approval: decline - too expensive' });
    expect(await h.storage.getPausePoint(pause!.id)).toMatchObject({ resolution: 'decline', reason: 'too expensive' });
  });

  it('approves with an edited payload and tells the model what was approved', async () => {
    const h = harness([wait({ title: 'Post', description: 'Tweet it', payload: { text: 'helo' } }), { text: 'Posted.' }]);
    const id = await say(h, null, 'post');
    const [pause] = await pending(h, id);
    expect(await h.engine.decide(pause!.id, { type: 'approve', editedPayload: ['not', 'an object'] }, tab('tab-A'))).toMatchObject({ outcome: 'invalid' });
    await h.engine.decide(pause!.id, { type: 'approve', editedPayload: { text: 'hello' } }, tab('tab-A'));
    await h.engine.whenIdle();
    expect(await h.storage.getPausePoint(pause!.id)).toMatchObject({ editedPayload: { text: 'hello' }, payload: { text: 'helo' } });
    expect(h.model.lastMessages().at(-1)?.content).toBe('Approval approval: approve\nPayload (edited by the user): {"text":"hello"}');
  });

  it('collects form data checked against the form schema', async () => {
    const form = {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Full name' },
        seats: { type: 'integer', title: 'Seats' },
        plan: { type: 'string', enum: ['basic', 'pro'] },
        invoice: { type: 'boolean', title: 'Send invoice' },
      },
      required: ['name', 'seats'],
    };
    const h = harness([wait({ title: 'Details', description: 'Fill in', kind: 'data_entry', payload: form }), { text: 'Thanks' }]);
    const id = await say(h, null, 'sign me up');
    const [pause] = await pending(h, id);
    expect(pause?.kind).toBe('data_entry');

    const missing = await h.engine.decide(pause!.id, { type: 'submit', data: { seats: '2' } }, tab('tab-A'));
    expect(missing).toEqual({ outcome: 'invalid', message: 'Full name is required.' });
    expect(await pending(h, id)).toHaveLength(1);

    await h.engine.decide(pause!.id, { type: 'submit', data: { name: 'Ada', seats: '3', plan: 'pro', invoice: 'on', extra: 'dropped' } }, tab('tab-A'));
    await h.engine.whenIdle();
    const data = { name: 'Ada', seats: 3, plan: 'pro', invoice: true };
    expect(await h.storage.getPausePoint(pause!.id)).toMatchObject({ resolution: data });
    expect(h.model.lastMessages().at(-1)?.content).toBe(`Approval data_entry: submitted\nData: ${JSON.stringify(data)}`);
  });

  it('lets the first of two tabs deciding at once win; the other is told who decided', async () => {
    const h = harness([wait({ title: 'Ship', description: 'Deploy to production' }), { text: 'Shipped.' }]);
    const id = await say(h, null, 'ship it');
    const [pause] = await pending(h, id);
    const tabB = h.openTab('tab-B');

    const [a, b] = await Promise.all([
      h.engine.decide(pause!.id, { type: 'approve' }, tab('tab-A')),
      tabB.decide(pause!.id, { type: 'decline', reason: 'not today' }, tab('tab-B')),
    ]);
    await Promise.all([h.engine.whenIdle(), tabB.whenIdle()]);

    expect([a.outcome, b.outcome].sort()).toEqual(['already_decided', 'decided']);
    const loser = a.outcome === 'decided' ? b : a;
    expect(loser).toMatchObject({ outcome: 'already_decided', status: 'resolved', decidedBy: tab(a.outcome === 'decided' ? 'tab-A' : 'tab-B') });
    const decisions = (await h.storage.listMessages(id)).filter((m) => m.role === 'user' && m.decision);
    expect(decisions).toHaveLength(1);
    expect(h.model.requests).toHaveLength(2);
  });

  it('expires a card past its expiry, ignores it on resume, and tells the model', async () => {
    const h = harness([wait({ title: 'Book', description: 'Book the room' }), { text: 'It expired, so I did not book.' }], { settings: { expiryMs: async () => 60_000 } });
    const id = await say(h, null, 'book');
    const [pause] = await pending(h, id);
    expect(pause?.expiresAt).toBe(h.clock.now() + 60_000);

    h.clock.advance(60_001);
    await h.engine.run(id);
    expect(await h.storage.getPausePoint(pause!.id)).toMatchObject({ status: 'expired', expiredReason: 'timeout' });
    expect(h.model.lastMessages().at(-1)?.content).toBe('Approval approval: expired - no decision was made before it expired');
    expect(await h.engine.decide(pause!.id, { type: 'approve' }, tab('tab-A'))).toMatchObject({ outcome: 'already_decided', status: 'expired' });
  });

  it('abandons pending cards when the user sends a new message, and tells the model', async () => {
    const h = harness([wait({ title: 'Delete', description: 'Delete 3 files' }), { text: 'OK, something else then.' }]);
    const id = await say(h, null, 'clean up');
    const [pause] = await pending(h, id);
    await say(h, id, 'actually, never mind');
    expect(await h.storage.getPausePoint(pause!.id)).toMatchObject({ status: 'expired', expiredReason: 'abandoned' });
    const last = h.model.lastMessages().slice(-2);
    expect(last).toEqual([
      { role: 'user', content: 'Approval approval: expired - the user sent a new message instead of deciding' },
      { role: 'user', content: 'actually, never mind' },
    ]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });
});
