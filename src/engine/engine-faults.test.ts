import { describe, expect, it } from 'vitest';
import type { ModelRequest } from './model-port.ts';
import type { StoragePort } from './storage-port.ts';
import { FakeClock } from './testing/fake-clock.ts';
import { harness, say, state } from './testing/harness.ts';
import { modelError } from './testing/scripted-model.ts';
import { StorageError } from './storage-error.ts';

/** The storage a tab sees, with some methods replaced. */
function overriding(storage: StoragePort, overrides: Partial<StoragePort>): StoragePort {
  return new Proxy(storage, {
    get(target, key, receiver) {
      const own = (overrides as Record<PropertyKey, unknown>)[key];
      if (own !== undefined) return own;
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('endpoint faults', () => {
  it('stops with an error naming the key on 401, and Retry tries again', async () => {
    const h = harness([{ fail: modelError('auth', 'The endpoint refused the API key (401). Check the key in Settings.', 401) }, { text: 'hi' }]);
    const id = await say(h, null, 'hello');
    expect(await state(h, id)).toEqual({ kind: 'error', code: 'auth', message: 'The endpoint refused the API key (401). Check the key in Settings.', retryable: true });
    // The user's message is kept; a call that failed before any text leaves no empty answer behind.
    expect((await h.storage.listMessages(id)).map((m) => m.role)).toEqual(['user']);
    await h.engine.retry(id);
    await h.engine.whenIdle();
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('retries 429 after the endpoint\'s retry-after, and 5xx with backoff, visibly', async () => {
    const states: string[] = [];
    const h = harness([
      { fail: modelError('rate_limit', 'slow down', 429, 7_000) },
      { fail: modelError('server', 'bad gateway', 502) },
      { text: 'finally' },
    ]);
    const original = h.storage.updateConversation.bind(h.storage);
    h.storage.updateConversation = async (id, update) => {
      const written = await original(id, update);
      states.push(written.state.kind === 'retrying' ? `retrying#${written.state.attempt}` : written.state.kind);
      return written;
    };
    const id = await say(h, null, 'hello');
    expect(h.clock.sleeps).toEqual([7_000, 2_000]);
    // Each new attempt shows as running again before its request goes out.
    expect(states).toEqual(['retrying#1', 'running', 'retrying#2', 'running']);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
    expect(h.model.requests).toHaveLength(3);
  });

  it('gives up after five failed attempts with a retryable error', async () => {
    const h = harness(Array.from({ length: 5 }, () => ({ fail: modelError('server', 'down', 500) })));
    const id = await say(h, null, 'hello');
    expect(await state(h, id)).toMatchObject({ kind: 'error', code: 'server', retryable: true });
    expect(h.model.requests).toHaveLength(5);
  });

  it('keeps the partial text of a dropped stream, marks it interrupted and retries', async () => {
    const h = harness([
      (request: ModelRequest) => {
        request.onText('Half an ans');
        h.clock.advance(1_000); // let the throttled writer store the partial text
        request.onText('wer');
        throw modelError('dropped', 'The connection dropped mid-answer.');
      },
      { text: 'A whole answer.' },
    ]);
    const id = await say(h, null, 'hello');
    const assistants = (await h.storage.listMessages(id)).filter((m) => m.role === 'assistant');
    expect(assistants.map((m) => [m.content, m.status])).toEqual([
      ['Half an answer', 'interrupted'],
      ['A whole answer.', 'complete'],
    ]);
    // The model never sees its own broken half-answer.
    expect(h.model.lastMessages().filter((m) => m.role === 'assistant')).toEqual([]);
  });

  it('waits for the network when offline and resumes with exactly one more request', async () => {
    const h = harness([{ fail: modelError('network', 'fetch failed') }, { text: 'back online' }]);
    h.network.goOffline();
    const { conversationId: id } = await h.engine.send(null, 'hello');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await state(h, id)).toMatchObject({ kind: 'waiting_for_network' });
    expect(h.model.requests).toHaveLength(1);
    h.network.goOnline();
    await h.engine.whenIdle();
    expect(h.model.requests).toHaveLength(2);
    expect(await state(h, id)).toEqual({ kind: 'idle' });
  });

  it('stops a running turn on request, keeping what streamed', async () => {
    const h = harness([
      (request: ModelRequest) =>
        new Promise((_, reject) => {
          request.onText('Thinking');
          request.signal.addEventListener('abort', () => reject(request.signal.reason));
        }),
    ]);
    const { conversationId: id } = await h.engine.send(null, 'hello');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(h.engine.stop(id)).toBe(true);
    await h.engine.whenIdle();
    expect(await state(h, id)).toEqual({ kind: 'idle' });
    const messages = await h.storage.listMessages(id);
    expect(messages.at(-1)).toMatchObject({ role: 'notice', content: 'Stopped.' });
    expect(messages.find((m) => m.role === 'assistant')).toMatchObject({ content: 'Thinking', status: 'interrupted' });
  });

  it('refuses a message to a conversation that does not exist, and stores nothing', async () => {
    const h = harness([{ text: 'never asked' }]);
    await expect(h.engine.send('gone', 'hello')).rejects.toMatchObject({ name: 'CallerError', code: 'not_found' });
    await h.engine.whenIdle();
    expect(h.model.requests).toHaveLength(0);
    expect(await h.storage.listMessages('gone')).toEqual([]);
  });

  it('refuses a second message while a turn runs, losing nothing', async () => {
    let release!: () => void;
    const h = harness([() => new Promise((resolve) => (release = () => resolve({ content: 'done', toolCalls: [], finishReason: 'stop' })))]);
    const { conversationId: id } = await h.engine.send(null, 'first');
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(h.engine.send(id, 'second')).rejects.toMatchObject({ name: 'CallerError', code: 'busy' });
    release();
    await h.engine.whenIdle();
    expect((await h.storage.listMessages(id)).map((m) => m.content)).toEqual(['first', 'done']);
  });

  it('stops while waiting to retry or waiting for the network', async () => {
    const h = harness([{ fail: modelError('network', 'fetch failed') }]);
    h.network.goOffline();
    const { conversationId: id } = await h.engine.send(null, 'hello');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await state(h, id)).toMatchObject({ kind: 'waiting_for_network' });
    expect(h.engine.stop(id)).toBe(true);
    await h.engine.whenIdle();
    expect(await state(h, id)).toEqual({ kind: 'idle' });
    expect((await h.storage.listMessages(id)).at(-1)).toMatchObject({ role: 'notice', content: 'Stopped.' });

    let wake!: () => void;
    const slow = harness([{ fail: modelError('server', 'busy', 503) }], {
      clock: Object.assign(new FakeClock(), {
        sleep: (_ms: number, signal: AbortSignal) =>
          new Promise<void>((resolve, reject) => {
            wake = resolve;
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          }),
      }),
    });
    const { conversationId: other } = await slow.engine.send(null, 'hello');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await state(slow, other)).toMatchObject({ kind: 'retrying', attempt: 1 });
    expect(slow.engine.stop(other)).toBe(true);
    await slow.engine.whenIdle();
    expect(await state(slow, other)).toEqual({ kind: 'idle' });
    expect(wake).toBeTypeOf('function');
    expect(slow.model.requests).toHaveLength(1);
  });

  it('passes on a failure whose error state cannot be stored either, with the words the state would have had', async () => {
    const failures: [unknown, string][] = [];
    const h = harness([{ text: 'never stored' }], { onError: (error, id) => failures.push([error, id]) });
    const id = await h.engine.createConversation();
    const full = Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    // The question fits; nothing after it does.
    const storage = h.storage;
    const tab = h.openTab('tab-A', {
      storage: overriding(storage, {
        appendMessages: async (...args: Parameters<typeof storage.appendMessages>) => {
          if (args[1][0]?.role !== 'user') throw full;
          return storage.appendMessages(...args);
        },
        updateConversation: async () => {
          throw full;
        },
      }),
    });
    await tab.send(id, 'hello');
    await tab.whenIdle();
    expect(failures).toHaveLength(1);
    const [error, conversationId] = failures[0]!;
    expect(conversationId).toBe(id);
    expect(error).toMatchObject({ name: 'UnrecordedFailure', conversationId: id, message: expect.stringMatching(/^The browser ran out of storage space/), cause: full });
    expect((await h.storage.listMessages(id)).map((m) => m.content)).toEqual(['hello']);
  });

  it('ends quietly when the conversation is deleted under its run', async () => {
    const failures: unknown[] = [];
    let deleted = false;
    const h = harness([(request) => {
      deleted = true;
      request.onText('');
      return Promise.resolve({ content: 'too late', toolCalls: [], finishReason: 'stop' });
    }], { onError: (error) => failures.push(error) });
    const id = await h.engine.createConversation();
    const storage = h.storage;
    const gone = () => new StorageError('not_found', 'No conversation.');
    const tab = h.openTab('tab-A', {
      storage: overriding(storage, {
        getConversation: async (conversationId: string) => (deleted ? undefined : storage.getConversation(conversationId)),
        appendMessages: async (...args: Parameters<typeof storage.appendMessages>) => {
          if (deleted) throw gone();
          return storage.appendMessages(...args);
        },
        updateConversation: async (...args: Parameters<typeof storage.updateConversation>) => {
          if (deleted) throw gone();
          return storage.updateConversation(...args);
        },
      }),
    });
    await tab.send(id, 'hello');
    await tab.whenIdle();
    expect(failures).toEqual([]);
  });
});
