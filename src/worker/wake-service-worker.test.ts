import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Intent } from './protocol.ts';
import { WAKE_MESSAGE, wakeServiceWorker } from './wake-service-worker.ts';
import { WorkerClient } from './worker-client.ts';

/** A stand-in for the agent worker: answers every intent at once, as the real one would once done. */
class AnsweringWorker {
  static intents: Intent[] = [];
  readonly #listeners: ((event: { data: unknown }) => void)[] = [];
  addEventListener(type: string, listener: (event: { data: unknown }) => void) {
    if (type === 'message') this.#listeners.push(listener);
  }
  postMessage({ id, intent }: { id: number; intent: Intent }) {
    AnsweringWorker.intents.push(intent);
    const value = intent.type === 'decide' ? { outcome: 'decided' } : { conversationId: 'c1' };
    queueMicrotask(() => this.#listeners.forEach((listener) => listener({ data: { id, ok: true, value } })));
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  AnsweringWorker.intents = [];
});

describe('waking the service worker', () => {
  test('posts to the controlling service worker, and does nothing without one', () => {
    const postMessage = vi.fn();
    wakeServiceWorker({ controller: { postMessage } });
    expect(postMessage).toHaveBeenCalledWith(WAKE_MESSAGE);
    expect(() => wakeServiceWorker({ controller: null })).not.toThrow();
    expect(() => wakeServiceWorker(undefined)).not.toThrow();
  });

  test('the page wakes it with each intent that leads to a model request, and with no other', async () => {
    vi.stubGlobal('Worker', AnsweringWorker);
    const postMessage = vi.fn();
    const client = new WorkerClient({ serviceWorker: { controller: { postMessage } } });

    await client.createConversation('Plans');
    await client.renameConversation('c1', 'Plans, renamed');
    await client.stop('c1');
    expect(postMessage).not.toHaveBeenCalled();

    await client.send('c1', 'Email the report, but ask me first.');
    expect(postMessage).toHaveBeenCalledTimes(1);
    await client.decide('p1', { type: 'approve' });
    expect(postMessage).toHaveBeenCalledTimes(2);
    await client.retry('c1');
    expect(postMessage).toHaveBeenCalledTimes(3);
    expect(postMessage).toHaveBeenLastCalledWith(WAKE_MESSAGE);
    // Each after its intent was handed to the agent worker: the wake never delays the intent.
    expect(AnsweringWorker.intents.map((i) => i.type)).toEqual(['createConversation', 'renameConversation', 'stop', 'send', 'decide', 'retry']);
  });
});
