import { describe, expect, it } from 'vitest';
import type { LockPort } from './lock-port.ts';
import type { StoragePort } from './storage-port.ts';
import { harness, pending, say, state, tab as decidedBy } from './testing/harness.ts';

const wait = { calls: [{ name: 'wait_for_approval', args: { title: 'Go?', description: 'Say so.' } }] };

/** Counts each storage method's calls through a view of `inner`. */
function counted(inner: StoragePort): { storage: StoragePort; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const storage = new Proxy(inner, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
        calls.set(key, (calls.get(key) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { storage, calls };
}

/** Counts lock requests of either kind. */
function countedLocks(inner: LockPort): { locks: LockPort; requests: () => number } {
  let requests = 0;
  return {
    locks: {
      withLock: (name, task) => (requests++, inner.withLock(name, task)),
      ifAvailable: (name, task) => (requests++, inner.ifAvailable(name, task)),
    },
    requests: () => requests,
  };
}

describe('the way from a press to the model request', () => {
  it('Send sets the pending cards aside with the message, in one write, and runs under the one lock it took', async () => {
    const h = harness([wait, { text: 'On to the next thing.' }]);
    const id = await say(h, null, 'first');
    expect(await pending(h, id)).toHaveLength(1);

    const { storage, calls } = counted(h.storage);
    const { locks, requests } = countedLocks(h.locks);
    const tab = h.openTab('tab-A', { storage, locks });
    await tab.send(id, 'never mind');
    await tab.whenIdle();

    expect(await pending(h, id)).toEqual([]);
    expect(h.model.requests).toHaveLength(2);
    const seen = h.model.requests[1]!.messages.map((m) => m.content);
    expect(seen.at(-1)).toBe('never mind');
    expect(seen.at(-2)).toMatch(/^Approval approval: expired/);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
    // Before: a read of the pending cards, a settlement per card, then the message; and a second lock for the run.
    expect(calls.get('listPendingPausePoints') ?? 0).toBe(0);
    expect(calls.get('settlePausePoint') ?? 0).toBe(0);
    expect(requests()).toBe(1);
    // And the run's first step is read in that write's transaction: no read of its own before the model request.
    expect(calls.get('appendAndLoadStep')).toBe(1);
    expect(calls.get('loadStep') ?? 0).toBe(0);
    expect(calls.get('appendMessages') ?? 0).toBe(1);
  });

  it('Approve runs the call with the records its step read along with it: no second read between the decision and the tool', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'Bo' } }] }, { text: 'Sent.' }]);
    const id = await say(h, null, 'pay Bo');
    const [card] = await pending(h, id);

    const { storage, calls } = counted(h.storage);
    const tab = h.openTab('tab-A', { storage });
    expect(await tab.decide(card!.id, { type: 'approve' }, decidedBy('tab-A'))).toEqual({ outcome: 'decided' });
    await tab.whenIdle();

    expect(h.executions).toEqual([{ amount: 500, to: 'Bo' }]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
    // Before: the step's read, then a read of the call's pause points and ledger entry.
    expect(calls.get('loadStep')).toBe(1);
    expect(calls.get('loadCalls') ?? 0).toBe(0);
  });

  it('Approve in the tab that made the card stores the decision and reads the step after it in one write, under the one lock it took', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'Bo' } }] }, { text: 'Sent.' }]);
    const { storage, calls } = counted(h.storage);
    const { locks, requests } = countedLocks(h.locks);
    const tab = h.openTab('tab-A', { storage, locks });
    const id = await say(h, null, 'pay Bo', tab);
    const [card] = await pending(h, id);
    calls.clear();
    const before = requests();

    expect(await tab.decide(card!.id, { type: 'approve' }, decidedBy('tab-A'))).toEqual({ outcome: 'decided' });
    await tab.whenIdle();

    expect(h.executions).toEqual([{ amount: 500, to: 'Bo' }]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
    expect(h.model.lastMessages().some((m) => m.role === 'user' && typeof m.content === 'string' && /^Approval approval: approve/.test(m.content))).toBe(true);
    // Before: the settlement, a second lock request for the run, then the step's own read.
    expect(calls.get('settleAndLoadStep')).toBe(1);
    expect(calls.get('settlePausePoint') ?? 0).toBe(0);
    expect(calls.get('loadStep') ?? 0).toBe(0);
    expect(calls.get('loadCalls') ?? 0).toBe(0);
    expect(requests() - before).toBe(1);
  });

  it('Approve while the conversation’s lock is held elsewhere stores the decision at once, and the run follows when the lock is let go', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 500, to: 'Bo' } }] }, { text: 'Sent.' }]);
    const { storage, calls } = counted(h.storage);
    const tab = h.openTab('tab-A', { storage });
    const id = await say(h, null, 'pay Bo', tab);
    const [card] = await pending(h, id);
    let release!: () => void;
    const held = h.locks.withLock(`pausepoint:conversation:${id}`, () => new Promise<void>((resolve) => (release = resolve)));

    expect(await tab.decide(card!.id, { type: 'approve' }, decidedBy('tab-A'))).toEqual({ outcome: 'decided' });
    expect(await h.storage.getPausePoint(card!.id)).toMatchObject({ status: 'resolved' });
    expect(calls.get('settleAndLoadStep') ?? 0).toBe(0);
    expect(h.executions).toEqual([]);
    release();
    await held;
    await tab.whenIdle();
    expect(h.executions).toEqual([{ amount: 500, to: 'Bo' }]);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('Send is refused while another tab holds the conversation, and stores nothing', async () => {
    const h = harness([{ text: 'hello' }]);
    const id = await say(h, null, 'first');
    let release!: () => void;
    const held = h.locks.withLock(`pausepoint:conversation:${id}`, () => new Promise<void>((resolve) => (release = resolve)));
    await expect(h.engine.send(id, 'second')).rejects.toMatchObject({ code: 'busy' });
    release();
    await held;
    expect((await h.storage.listMessages(id)).map((m) => m.content)).not.toContain('second');
  });

  it('hands the model factory what storage read along with the step, and nothing for a step carried on without a read', async () => {
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 5, to: 'Bo' } }] }, { text: 'Done.' }]);
    let reads = 0;
    const loadStep: StoragePort['loadStep'] = async (...args) => ({ ...(await h.storage.loadStep(...args)), alongside: { read: ++reads } });
    // A Send's first step is read by its write.
    const appendAndLoadStep: StoragePort['appendAndLoadStep'] = async (...args) => ({ ...(await h.storage.appendAndLoadStep(...args)), alongside: { read: ++reads } });
    const storage = new Proxy(h.storage, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (key === 'loadStep') return loadStep;
        if (key === 'appendAndLoadStep') return appendAndLoadStep;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const given: unknown[] = [];
    const spendingGiven: unknown[] = [];
    const tab = h.openTab('tab-A', {
      storage,
      model: (alongside) => {
        given.push(alongside);
        return h.model;
      },
      settings: {
        expiryMs: async () => null,
        spending: async (alongside) => {
          spendingGiven.push(alongside);
          return { limits: { tokensPerConversation: null, costPerConversation: null, costPerDay: null }, prices: [], model: 'm', spentToday: 0 };
        },
      },
    });
    await say(h, null, 'pay Bo', tab);
    // The first call's step was read (with its settings); the second follows the tool result this run wrote.
    expect(given).toEqual([{ read: 1 }, undefined]);
    // The spending check before each call gets the same: no read of its own where the step brought the settings.
    expect(spendingGiven).toEqual([{ read: 1 }, undefined]);
    expect(h.executions).toEqual([{ amount: 5, to: 'Bo' }]);
  });
});
