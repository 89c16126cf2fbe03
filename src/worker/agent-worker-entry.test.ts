import { afterEach, describe, expect, it, vi } from 'vitest';
import { START_AGENT } from './start-agent.ts';

const runAgent = vi.fn();
vi.mock('./run-agent.ts', () => ({ runAgent }));

/** A dedicated worker's global as the entry sees it: its message listeners, and a way to post to them. */
function workerGlobal() {
  const listeners = new Set<(event: MessageEvent<unknown>) => void>();
  const scope = {
    addEventListener: (_type: 'message', listener: (event: MessageEvent<unknown>) => void) => void listeners.add(listener),
    removeEventListener: (_type: 'message', listener: (event: MessageEvent<unknown>) => void) => void listeners.delete(listener),
  };
  const post = (data: unknown) => {
    for (const listener of [...listeners]) listener(new MessageEvent('message', { data }));
  };
  return { scope, post, listeners };
}

describe('the agent worker’s entry (agent.worker.ts)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
    runAgent.mockReset();
  });

  async function loadEntry() {
    const worker = workerGlobal();
    vi.stubGlobal('self', worker.scope);
    await import('./agent.worker.ts');
    return worker;
  }

  it('starts the agent with the first intent, and hands it every intent that came before it ran, in order', async () => {
    const { post, listeners } = await loadEntry();
    expect(runAgent).not.toHaveBeenCalled();

    post({ id: 1, intent: { type: 'stop', conversationId: 'c1' } });
    post({ id: 2, intent: { type: 'retry', conversationId: 'c1' } });
    await vi.waitFor(() => expect(runAgent).toHaveBeenCalledTimes(1));

    const held = runAgent.mock.calls[0]![0] as MessageEvent<unknown>[];
    expect(held.map((event) => event.data)).toEqual([
      { id: 1, intent: { type: 'stop', conversationId: 'c1' } },
      { id: 2, intent: { type: 'retry', conversationId: 'c1' } },
    ]);
    // The agent listens from here on: the entry holds nothing more.
    expect(listeners.size).toBe(0);
  });

  it('starts the agent on the page’s word, which is not an intent to hand on', async () => {
    const { post } = await loadEntry();
    post(START_AGENT);
    await vi.waitFor(() => expect(runAgent).toHaveBeenCalledTimes(1));
    expect(runAgent.mock.calls[0]![0]).toEqual([]);
  });

  it('waits for a word: loading the entry alone starts nothing', async () => {
    await loadEntry();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runAgent).not.toHaveBeenCalled();
  });
});
