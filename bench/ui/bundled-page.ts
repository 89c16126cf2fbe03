import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { build } from 'vite';
import type { BrowserContext } from '@playwright/test';

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.map': 'application/json' };

/**
 * Bundles a bench's page entry (and the app code it imports: Dexie, zod…)
 * into `outDir/script`, minified as the app's build is; with `sourcemap`, a
 * map beside it for CPU profiles (cpu-profile.ts's sourceResolver).
 */
export async function bundlePage(entry: string, outDir: string, script: string, { sourcemap = false } = {}): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap,
      rollupOptions: { input: entry, output: { format: 'es', entryFileNames: script } },
    },
  });
}

/**
 * Serves a bundled page on `origin`, a loopback origin that nothing listens
 * on: Playwright answers its requests from `outDir` (`context.route`), and
 * `/` with `html`. As loopback it is a secure context with IndexedDB like the
 * app's own. tsx's keepNames wraps functions handed to `page.evaluate` in
 * `__name()`, which the page lacks: an init script supplies one.
 */
export async function serveBundle(context: BrowserContext, origin: string, outDir: string, html: string): Promise<void> {
  await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
  await context.route(`${origin}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: html });
    const body = await readFile(join(outDir, path)).catch(() => undefined);
    return body ? route.fulfill({ contentType: TYPES[extname(path)] ?? 'application/octet-stream', body }) : route.fulfill({ status: 404 });
  });
}
