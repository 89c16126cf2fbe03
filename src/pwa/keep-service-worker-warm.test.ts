import { describe, expect, it } from 'vitest';
import { keepServiceWorkerWarm, type KeepWarmEnvironment } from './keep-service-worker-warm.ts';

function fakeEnvironment(visibilityState: DocumentVisibilityState, controlled = true) {
  const posted: unknown[] = [];
  const listeners = new Set<() => void>();
  let tick: (() => void) | undefined;
  let cleared = false;
  const document = {
    visibilityState,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  const env = {
    document,
    container: { controller: controlled ? { postMessage: (message: unknown) => posted.push(message) } : null },
    setInterval: (handler: () => void) => (tick = handler),
    clearInterval: () => (cleared = true),
  } as unknown as KeepWarmEnvironment;
  return {
    env,
    posted,
    tick: () => tick?.(),
    setVisibility(state: DocumentVisibilityState) {
      document.visibilityState = state;
      for (const listener of listeners) listener();
    },
    get listening() {
      return listeners.size;
    },
    get cleared() {
      return cleared;
    },
  };
}

describe('keepServiceWorkerWarm', () => {
  it('pings the service worker on each interval while the tab is visible', () => {
    const fake = fakeEnvironment('visible');
    keepServiceWorkerWarm(fake.env);
    fake.tick();
    fake.tick();
    expect(fake.posted).toEqual([{ type: 'pausepoint:keep-warm' }, { type: 'pausepoint:keep-warm' }]);
  });

  it('sends nothing while hidden, and one ping at once on becoming visible', () => {
    const fake = fakeEnvironment('hidden');
    keepServiceWorkerWarm(fake.env);
    fake.tick();
    expect(fake.posted).toEqual([]);
    fake.setVisibility('visible');
    expect(fake.posted).toEqual([{ type: 'pausepoint:keep-warm' }]);
  });

  it('does nothing without a controlling service worker', () => {
    const fake = fakeEnvironment('visible', false);
    keepServiceWorkerWarm(fake.env);
    fake.tick();
    expect(fake.posted).toEqual([]);
  });

  it('stops: the interval is cleared and visibility is no longer watched', () => {
    const fake = fakeEnvironment('visible');
    const stop = keepServiceWorkerWarm(fake.env);
    stop();
    expect(fake.cleared).toBe(true);
    expect(fake.listening).toBe(0);
  });
});
