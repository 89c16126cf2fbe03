// @vitest-environment jsdom
import { flushSync } from 'svelte';
import { describe, expect, test } from 'vitest';
import { LiveQuery, type Subscribable } from './live-query.svelte.ts';

/** A hand-driven observable that records who is subscribed. */
function source<T>() {
  const observers = new Set<{ next: (v: T) => void; error: (e: unknown) => void }>();
  const observable: Subscribable<T> = {
    subscribe(observer) {
      observers.add(observer);
      return { unsubscribe: () => observers.delete(observer) };
    },
  };
  return {
    observable,
    observers,
    emit: (value: T) => observers.forEach((o) => o.next(value)),
    fail: (error: unknown) => observers.forEach((o) => o.error(error)),
  };
}

describe('LiveQuery', () => {
  test('starts at the initial value, then follows emissions', () => {
    const s = source<number[]>();
    let query!: LiveQuery<number[]>;
    const dispose = $effect.root(() => {
      query = new LiveQuery(() => s.observable, []);
    });
    flushSync();
    expect(query.current).toEqual([]);
    expect(query.ready).toBe(false);
    s.emit([1, 2]);
    expect(query.current).toEqual([1, 2]);
    expect(query.ready).toBe(true);
    dispose();
  });

  test('unsubscribes when its owner is destroyed', () => {
    const s = source<number>();
    const dispose = $effect.root(() => {
      new LiveQuery(() => s.observable, 0);
    });
    flushSync();
    expect(s.observers.size).toBe(1);
    dispose();
    expect(s.observers.size).toBe(0);
  });

  test('re-subscribes when the reactive input of its source changes, resetting to initial', () => {
    const a = source<string>();
    const b = source<string>();
    const which = $state({ name: 'a' });
    let query!: LiveQuery<string>;
    const dispose = $effect.root(() => {
      query = new LiveQuery(() => (which.name === 'a' ? a.observable : b.observable), '');
    });
    flushSync();
    a.emit('from a');
    expect(query.current).toBe('from a');
    which.name = 'b';
    flushSync();
    expect(a.observers.size).toBe(0);
    expect(b.observers.size).toBe(1);
    expect(query.current).toBe('');
    expect(query.ready).toBe(false);
    b.emit('from b');
    expect(query.current).toBe('from b');
    dispose();
  });

  test('keepWhileLoading leaves the previous value on screen until the new source emits', () => {
    const a = source<string>();
    const b = source<string>();
    const which = $state({ name: 'a' });
    let query!: LiveQuery<string>;
    const dispose = $effect.root(() => {
      query = new LiveQuery(() => (which.name === 'a' ? a.observable : b.observable), '', { keepWhileLoading: true });
    });
    flushSync();
    a.emit('from a');
    which.name = 'b';
    flushSync();
    expect(query.current).toBe('from a');
    expect(query.ready).toBe(false);
    b.emit('from b');
    expect(query.current).toBe('from b');
    expect(query.ready).toBe(true);
    dispose();
  });

  test('a null source stays at the initial value; errors are kept', () => {
    const s = source<number>();
    const on = $state({ value: false });
    let query!: LiveQuery<number>;
    const dispose = $effect.root(() => {
      query = new LiveQuery(() => (on.value ? s.observable : null), 7);
    });
    flushSync();
    expect(query.current).toBe(7);
    on.value = true;
    flushSync();
    s.fail(new Error('closed'));
    expect(query.error).toBeInstanceOf(Error);
    expect(query.ready).toBe(true);
    dispose();
  });

  test('a seed is the first value, ready at once; the source still runs and its first emission replaces it', () => {
    const a = source<string>();
    const b = source<string>();
    const which = $state({ name: 'a' });
    let query!: LiveQuery<string>;
    const dispose = $effect.root(() => {
      query = new LiveQuery(() => (which.name === 'a' ? a.observable : b.observable), '', { seed: { value: 'read ahead' } });
    });
    expect(query.current).toBe('read ahead');
    expect(query.ready).toBe(true);
    flushSync();
    expect(a.observers.size).toBe(1);
    expect(query.current).toBe('read ahead');
    a.emit('live');
    expect(query.current).toBe('live');

    // The seed was for the first source only: another starts from the initial value, not ready.
    which.name = 'b';
    flushSync();
    expect(query.current).toBe('');
    expect(query.ready).toBe(false);
    dispose();
  });
});
