import type * as RenderMarkdown from './render-markdown.ts';

/**
 * The markdown renderer (marked and DOMPurify, a quarter of the page's
 * JavaScript) in a chunk of its own, loaded on demand: the setup screen, a new
 * chat, Settings and the audit log never need it. Views that show model text
 * call `loadMarkdown()` as they open, so the chunk arrives while their records
 * are read from IndexedDB; the service worker precaches it for offline use.
 * Until it has arrived, `Markdown` shows the source as plain text — escaped,
 * never HTML — so nothing waits on it and nothing unsafe shows meanwhile.
 */
type Renderer = typeof RenderMarkdown;

let renderer: Renderer | undefined = $state.raw();
let loading: Promise<void> | undefined;

/** Starts loading the renderer: once, and again after a failure. Never rejects; `markdownRenderer()` says when it is there. */
export function loadMarkdown(): Promise<void> {
  loading ??= import('./render-markdown.ts').then(
    (module) => {
      renderer = module;
    },
    (error: unknown) => {
      // A failed chunk load (a broken update, say) leaves plain text on screen; the next view to open tries again.
      loading = undefined;
      console.warn('Pausepoint: the markdown renderer did not load; showing plain text', error);
    },
  );
  return loading;
}

/** The renderer once loaded, else undefined. Reactive: a view re-renders when it arrives. */
export function markdownRenderer(): Renderer | undefined {
  return renderer;
}
