// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { render } from '@testing-library/svelte';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { PausepointDb } from '../../storage/db.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { cardViewModule } from '../cards/decision-view-loader.svelte.ts';
import { markdownRenderer } from '../markdown/markdown-renderer.svelte.ts';
import { readFirstScreen, type FirstScreen } from '../state/first-screen.ts';
import { fakeContext, pausePoint } from '../testing/fake-app.svelte.ts';
import CardLink from './CardLink.svelte';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

afterEach(() => {
  window.history.replaceState(null, '', '#');
});

// In this order: the card's code, once loaded, stays loaded for the rest of the file.
describe('a page opened on a push link (bench:push: link → card actionable)', () => {
  test('any other first screen loads neither the card’s code nor the markdown renderer', async () => {
    window.history.replaceState(null, '', '#/new');
    await readFirstScreen(db, { view: 'new' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cardViewModule()).toBeUndefined();
    expect(markdownRenderer()).toBeUndefined();
  });

  test('loads the card’s code and the markdown renderer from its start, while the card is still on its way', async () => {
    window.history.replaceState(null, '', '#card=p1');
    await readFirstScreen(db, { view: 'new' });
    // Not a timing: vitest transforms the renderer (marked, DOMPurify) on this first import, seconds on a busy machine.
    await vi.waitFor(
      () => {
        expect(cardViewModule()).toBeDefined();
        expect(markdownRenderer()).toBeDefined();
      },
      { timeout: 15_000 },
    );
  });

  test('opens the card’s conversation once its records are read ahead, so the view draws the card in its first render', async () => {
    window.history.replaceState(null, '', '#card=p1');
    const { app, dispose } = fakeContext();
    let release!: () => void;
    const readAhead = vi.fn((_id: string) => new Promise<void>((resolve) => (release = resolve)));
    const first = { readAhead } as unknown as FirstScreen;
    render(CardLink, { props: { db, router: app.router, first } });

    // The card's document arrives by sync.
    await db.pausePoints.put(pausePoint({ id: 'p1', conversationId: 'c1' }));
    await vi.waitFor(() => expect(readAhead).toHaveBeenCalledWith('c1'));
    expect(app.router.route).toEqual({ view: 'new' });
    release();
    await vi.waitFor(() => expect(app.router.route).toEqual({ view: 'conversation', id: 'c1', cardId: 'p1' }));
    expect(window.location.hash).toBe('#/c/c1/card/p1');
    expect(readAhead).toHaveBeenCalledTimes(1);
    dispose();
  });

  test('a read ahead that fails still opens the card: the view reads it itself', async () => {
    window.history.replaceState(null, '', '#card=p2');
    const { app, dispose } = fakeContext();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const first = { readAhead: vi.fn(async () => Promise.reject(new Error('storage broke'))) } as unknown as FirstScreen;
    await db.pausePoints.put(pausePoint({ id: 'p2', conversationId: 'c2' }));
    render(CardLink, { props: { db, router: app.router, first } });
    await vi.waitFor(() => expect(app.router.route).toEqual({ view: 'conversation', id: 'c2', cardId: 'p2' }));
    expect(warn).toHaveBeenCalled();
    dispose();
  });
});
