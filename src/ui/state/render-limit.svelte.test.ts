// @vitest-environment jsdom
import { flushSync } from 'svelte';
import { describe, expect, test } from 'vitest';
import { RenderLimit } from './render-limit.svelte.ts';

const nextPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

describe('RenderLimit', () => {
  test('renders the first items at once and the rest a step per paint, then everything', async () => {
    const list = $state({ total: 0 });
    let limit!: RenderLimit;
    const dispose = $effect.root(() => {
      limit = new RenderLimit(() => list.total, { first: 3, step: 5 });
    });
    flushSync();
    expect(limit.current).toBe(3);
    // Not read yet: nothing to grow towards.
    await nextPaint();
    expect(limit.current).toBe(3);

    list.total = 12;
    flushSync();
    expect(limit.current).toBe(3);
    await nextPaint();
    expect(limit.current).toBe(8);
    await nextPaint();
    flushSync();
    expect(limit.current).toBe(Infinity);

    list.total = 40;
    flushSync();
    expect(limit.current).toBe(Infinity);
    dispose();
  });

  test('a short list is covered at once', () => {
    const list = $state({ total: 2 });
    let limit!: RenderLimit;
    const dispose = $effect.root(() => {
      limit = new RenderLimit(() => list.total, { first: 3, step: 5 });
    });
    flushSync();
    expect(limit.current).toBe(Infinity);
    dispose();
  });

  test('stops growing once its owner is gone', async () => {
    const list = $state({ total: 100 });
    let limit!: RenderLimit;
    const dispose = $effect.root(() => {
      limit = new RenderLimit(() => list.total, { first: 3, step: 5 });
    });
    flushSync();
    dispose();
    await nextPaint();
    await nextPaint();
    expect(limit.current).toBe(3);
  });
});
