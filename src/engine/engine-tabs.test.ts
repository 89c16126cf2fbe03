import { describe, expect, it } from 'vitest';
import { buildRequest } from './build-request.ts';
import type { ModelRequest } from './model-port.ts';
import type { StepRecords, StoragePort } from './storage-port.ts';
import type { Message } from './records/index.ts';
import { crashableStorage } from './testing/crashable-storage.ts';
import { harness, pending, say, state, streamThenDie, tab, type Harness } from './testing/harness.ts';

/**
 * Each tab's engine keeps the histories it read (history-cache.ts). These
 * tests write from other tabs between, and during, one tab's runs, and hold
 * every model request to what a cold read of storage gives at that moment.
 */
async function conversationCheckingEveryRequest(h: Harness): Promise<{ id: string; stale: unknown[] }> {
  const id = await h.engine.createConversation();
  const stale: unknown[] = [];
  const complete = h.model.complete.bind(h.model);
  h.model.complete = async (request: ModelRequest) => {
    const cold = buildRequest(await h.storage.listMessages(id));
    if (JSON.stringify(request.messages) !== JSON.stringify(cold)) stale.push({ sent: request.messages, stored: cold });
    return complete(request);
  };
  return { id, stale };
}

/** The storage with its `loadStep` results reported to `seen`. */
function watchingSteps(inner: StoragePort, seen: (step: StepRecords) => void): StoragePort {
  return new Proxy(inner, {
    get(target, key) {
      if (key === 'loadStep') {
        return async (conversationId: string, fromSeq: number) => {
          const step = await target.loadStep(conversationId, fromSeq);
          seen(step);
          return step;
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const transfer = (amount: number, to: string, id: string) => ({ name: 'transfer', args: { amount, to }, id });

describe('one tab sees what other tabs wrote', () => {
  it('acts on a decision another tab made while this one had the conversation paused', async () => {
    const h = harness([{ calls: [transfer(500, 'bob', 'call_1')] }, { text: 'Sent.' }, { text: 'Nothing else to send.' }]);
    const { id, stale } = await conversationCheckingEveryRequest(h);
    await say(h, id, 'pay bob');
    const [gate] = await pending(h, id);

    // Tab B decides, then closes before its own run reads anything.
    const tabB = h.openTab('tab-B', { storage: crashableStorage(h.storage, (method) => method === 'loadStep') });
    expect(await tabB.decide(gate!.id, { type: 'approve' }, tab('tab-B'))).toEqual({ outcome: 'decided' });
    await tabB.whenIdle();

    await h.engine.run(id);
    expect(h.executions).toEqual([{ amount: 500, to: 'bob' }]);
    expect(h.model.lastMessages().at(-1)).toEqual({ role: 'user', content: 'Approval approval: approve\nPayload: {"amount":500,"to":"bob"}' });
    expect(await state(h, id)).toEqual({ kind: 'idle' });

    await say(h, id, 'anything else?');
    expect(h.model.requests).toHaveLength(3);
    expect(stale).toEqual([]);
  });

  it('continues from another tab’s run, and closes the stream that tab left when it died', async () => {
    const h = harness([
      { text: 'First answer.' },
      streamThenDie({ get clock() { return h.clock; } }, 'tab C closed mid-stream'),
      { text: 'Second answer.' },
    ]);
    const { id, stale } = await conversationCheckingEveryRequest(h);
    await say(h, id, 'first');

    const tabCStorage = crashableStorage(h.storage, (method, args) => method === 'putMessage' && String((args[0] as Message).content).includes('lost'));
    const tabC = h.openTab('tab-C', { storage: tabCStorage });
    await tabC.send(id, 'second');
    await tabC.whenIdle();
    expect(tabCStorage.dead).toBe(true);

    expect(await h.engine.recover(id)).toBe(true);
    const messages = await h.storage.listMessages(id);
    expect(messages.map((m) => [m.role, m.content, 'status' in m ? m.status : undefined])).toEqual([
      ['user', 'first', undefined],
      ['assistant', 'First answer.', 'complete'],
      ['user', 'second', undefined],
      ['assistant', 'Partial text', 'interrupted'],
      ['notice', expect.stringContaining('interrupted'), undefined],
      ['assistant', 'Second answer.', 'complete'],
    ]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
    expect(stale).toEqual([]);
  });

  it('never rewrites an answer once it is final, even if the model reports text late', async () => {
    const h = harness([
      (request: ModelRequest) => {
        setTimeout(() => {
          h.clock.advance(1_000);
          request.onText(' and a late piece');
        }, 0);
        return { content: 'Done.', toolCalls: [], finishReason: 'stop' };
      },
    ]);
    const id = await say(h, null, 'hi');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await h.storage.listMessages(id)).at(-1)).toMatchObject({ role: 'assistant', content: 'Done.', status: 'complete' });
  });
});

describe('reading history', () => {
  it('reads each step’s new messages, not the whole history again', async () => {
    const tails: number[] = [];
    const h = harness();
    const engine = h.openTab('tab-A', { storage: watchingSteps(h.storage, (step) => tails.push(step.tail.length)) });
    let id: string | null = null;
    for (let turn = 1; turn <= 10; turn++) {
      h.model.push({ calls: [transfer(500, 'bob', `call_${turn}`)] }, { text: `Sent ${turn}.` });
      id = await say(h, id, `pay bob, turn ${turn}`, engine);
      const [gate] = await pending(h, id);
      await engine.decide(gate!.id, { type: 'approve' }, tab('tab-A'));
      await engine.whenIdle();
    }
    expect(h.executions).toHaveLength(10);
    expect((await h.storage.listMessages(id!)).length).toBe(50);
    // The first step reads the one message there is; every later one its boundary message and what is new.
    expect(Math.max(...tails)).toBeLessThanOrEqual(4);
  });
});
