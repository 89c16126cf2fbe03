import { describe, expect, it } from 'vitest';
import type { StoragePort } from './storage-port.ts';
import { crashableStorage } from './testing/crashable-storage.ts';
import { harness, pending, say, state, tab } from './testing/harness.ts';

/** Records each storage method called through a view of `inner`, in order. */
function logged(inner: StoragePort): { storage: StoragePort; log: string[] } {
  const log: string[] = [];
  const storage = new Proxy(inner, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
        log.push(key);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { storage, log };
}

const usage = { model: 'm', prompt: 120, completion: 30, cached: 0, reasoning: 0 };

describe('an answer whose calls all wait for a person', () => {
  it('is stored with its cards and the paused state in one write, its turn and usage counted', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }], usage }, { text: 'Sent.' }]);
    const { storage, log } = logged(h.storage);
    const tabA = h.openTab('tab-A', { storage });
    const id = await say(h, null, 'pay bob', tabA);

    // The new conversation, the Send's write, then the answer with its card: no write of the answer on its own.
    expect(log.filter((method) => !method.startsWith('get') && !method.startsWith('list') && !method.startsWith('load'))).toEqual([
      'putConversation',
      'appendAndLoadStep',
      'pauseConversation',
    ]);
    const messages = await h.storage.listMessages(id);
    expect(messages.map((m) => [m.role, m.seq])).toEqual([
      ['user', 0],
      ['assistant', 1],
    ]);
    expect(messages[1]).toMatchObject({ status: 'complete', usage, toolCalls: [{ name: 'transfer' }] });
    const conversation = await h.storage.getConversation(id);
    expect(conversation).toMatchObject({ turns: 1, nextSeq: 2, state: { kind: 'paused', pending: 1 } });
    expect(conversation?.usage).toHaveLength(1);
    const [card] = await pending(h, id);
    expect(card).toMatchObject({ toolCallId: messages[1]?.role === 'assistant' ? messages[1].toolCalls[0]?.id : 'none' });

    expect(await tabA.decide(card!.id, { type: 'approve' }, tab('tab-A'))).toEqual({ outcome: 'decided' });
    await tabA.whenIdle();
    expect(h.executions).toEqual([{ amount: 500, to: 'bob' }]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('leaves nothing of itself behind when the tab dies as it pauses: the recovering tab asks the model again, and asks the user once', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }, { calls: [{ name: 'transfer', args: { amount: 500, to: 'bob' } }] }]);
    const tabAStorage = crashableStorage(h.storage, (method) => method === 'pauseConversation');
    const tabA = h.openTab('tab-A', { storage: tabAStorage });
    const { conversationId: id } = await tabA.send(null, 'pay bob');
    await tabA.whenIdle();
    expect(tabAStorage.dead).toBe(true);
    // Neither the answer nor its card: the history is as it was before the model call.
    expect((await h.storage.listMessages(id)).map((m) => m.role)).toEqual(['user']);
    expect(await h.storage.listPausePoints(id)).toEqual([]);
    expect(await h.storage.getConversation(id)).toMatchObject({ turns: 0 });

    const tabB = h.openTab('tab-B');
    expect(await tabB.recover(id)).toBe(true);
    expect(h.model.requests).toHaveLength(2);
    expect(await pending(h, id)).toHaveLength(1);
    expect((await h.storage.listMessages(id)).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(h.executions).toEqual([]);
  });
});

describe('an answer with a call that runs at once', () => {
  it('is stored before the call is recorded in the ledger and run, and its gated call asks after', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 10, to: 'ann' } }, { name: 'transfer', args: { amount: 500, to: 'bob' } }] }]);
    const { storage, log } = logged(h.storage);
    const tabA = h.openTab('tab-A', { storage });
    const id = await say(h, null, 'pay both', tabA);

    expect(h.executions).toEqual([{ amount: 10, to: 'ann' }]);
    const writes = log.filter((method) => ['appendMessages', 'beginExecution', 'finishExecution', 'pauseConversation'].includes(method));
    expect(writes).toEqual(['appendMessages', 'beginExecution', 'finishExecution', 'pauseConversation']);
    expect((await h.storage.listMessages(id)).map((m) => [m.role, m.seq])).toEqual([
      ['user', 0],
      ['assistant', 1],
      ['tool', 2],
    ]);
    expect(await h.storage.getConversation(id)).toMatchObject({ turns: 1, state: { kind: 'paused', pending: 1 } });
  });
});
