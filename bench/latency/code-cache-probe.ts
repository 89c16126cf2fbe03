/**
 * `npm run bench:code-cache`: does Chromium reuse V8's compiled code for a
 * script on a returning visit, depending on how the script reaches the page?
 *
 * Why it matters: a reload of the app compiles its start-up bundle (and its
 * worker's) from scratch when there is no code cache — a background compile the
 * main thread waits on, then lazy compiles of every function the start runs
 * (bench:latency's row c). The app's scripts are ES modules served by its
 * service worker.
 *
 * One page loads the same large script four times, as a module and as a
 * classic script, and as the script of a module and of a classic dedicated
 * worker (the agent's engine runs in one), on a profile kept on disk (an
 * off-the-record profile keeps no code cache at all), seven times; the last
 * load is traced and each script's compile event tells whether a cache was
 * consumed. Four ways of serving:
 * - `http`: no service worker, the HTTP cache;
 * - `sw cache.match`: a service worker answering from the Cache API
 *   (precached at install), as the app's fetch handler does;
 * - `sw static route`: the same cache through a static route (`addRoutes`), as
 *   the app's navigations and assets are;
 * - `sw pass-through`: a service worker answering with `fetch(request)`.
 * Each with the server's responses fresh for an hour, and with `no-cache`. What
 * it showed on Chromium 156 is in README.md ("Fourth pass"): a module script
 * from the Cache API keeps its code cache only when its stored response has a
 * lifetime, which is why the precache now stores its copies with one; and a
 * dedicated worker's script, module or classic, is compiled from source on
 * every load whatever the way (so the agent worker's start is not helped by
 * building it as a classic script).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { findChromium } from '../../scripts/chromium.mjs';

type Mode = 'http' | 'sw cache.match' | 'sw static route' | 'sw pass-through';
const MODES: readonly Mode[] = ['http', 'sw cache.match', 'sw static route', 'sw pass-through'];
const LOADS = 7;
/** A lifetime, and what many servers send for an app's files (vite preview among them). */
const CACHE_CONTROLS = ['max-age=3600', 'no-cache'] as const;

/** A script large enough to be cached (V8 skips small ones): Dexie's build, which has no side effects but a global. */
const SCRIPT = await readFile(new URL('../../node_modules/dexie/dist/dexie.js', import.meta.url), 'utf8');
/** The four ways the page runs it, by the file it loads. */
const SCRIPTS = { module: '/module.js', classic: '/classic.js', 'worker, module': '/worker-module.js', 'worker, classic': '/worker-classic.js' } as const;
type Kind = keyof typeof SCRIPTS;
const KINDS = Object.keys(SCRIPTS) as Kind[];

function serviceWorker(mode: Mode): string {
  const precache = `caches.open('probe').then((cache) => cache.addAll(${JSON.stringify(Object.values(SCRIPTS))}))`;
  const routes =
    mode === 'sw static route'
      ? `e.addRoutes({ condition: { urlPattern: new URLPattern({ pathname: '/*.js' }) }, source: { cacheName: 'probe' } });`
      : '';
  const fetchHandler =
    mode === 'sw pass-through'
      ? `e.respondWith(fetch(e.request))`
      : `e.respondWith(caches.match(e.request, { ignoreVary: true }).then((r) => r || fetch(e.request)))`;
  return `
self.addEventListener('install', (e) => { ${routes} self.skipWaiting(); e.waitUntil(${precache}); });
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => { if (new URL(e.request.url).pathname === '/sw.js') return; ${fetchHandler}; });`;
}

function page(mode: Mode): string {
  const register = mode === 'http' ? '' : '<script src="/register.js"></script>';
  const workers = `<script>new Worker('${SCRIPTS['worker, module']}', { type: 'module' }); new Worker('${SCRIPTS['worker, classic']}');</script>`;
  return `<!doctype html><html><head><script type="module" src="/module.js"></script><script src="/classic.js"></script>${workers}${register}</head><body>probe</body></html>`;
}

async function serve(mode: Mode, cacheControl: string): Promise<{ server: Server; origin: string }> {
  const files: Record<string, [string, string]> = {
    '/': ['text/html', page(mode)],
    '/module.js': ['text/javascript', `${SCRIPT}\nexport const probe = 1;`],
    '/classic.js': ['text/javascript', SCRIPT],
    '/worker-module.js': ['text/javascript', `${SCRIPT}\nexport const probe = 1;`],
    '/worker-classic.js': ['text/javascript', SCRIPT],
    '/register.js': ['text/javascript', `navigator.serviceWorker.register('/sw.js');`],
    '/sw.js': ['text/javascript', serviceWorker(mode)],
  };
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://x').pathname];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file[0], 'cache-control': cacheControl }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface CompileEvent {
  name: string;
  args?: { data?: { url?: string; consumedCacheSize?: number; cacheRejected?: boolean; notStreamedReason?: string } };
}

async function probe(mode: Mode, cacheControl: string): Promise<Record<Kind, string>> {
  const chromiumPath = findChromium()?.path;
  if (!chromiumPath) throw new Error('No Chromium found: set PAUSEPOINT_CHROMIUM, or run `node scripts/chromium.mjs --install`');
  const profile = await mkdtemp(join(tmpdir(), 'pausepoint-code-cache-'));
  const { server, origin } = await serve(mode, cacheControl);
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, args: ['--disable-gpu', '--no-first-run'] });
  try {
    const tab = await context.newPage();
    const browser = context.browser();
    if (!browser) throw new Error('No browser to trace');
    for (let load = 1; load <= LOADS; load++) {
      if (load === LOADS) await browser.startTracing(tab, { categories: ['devtools.timeline', 'v8'] });
      await tab.goto(`${origin}/`);
      if (mode !== 'http' && load === 1) await tab.waitForFunction(() => navigator.serviceWorker.controller !== null);
      // Chromium writes a produced cache after the load, off the page's tasks.
      await tab.waitForTimeout(1000);
    }
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: CompileEvent[] };
    const verdict = (file: string) => {
      const compile = trace.traceEvents.find((e) => (e.name === 'v8.compile' || e.name === 'v8.compileModule') && e.args?.data?.url?.endsWith(file));
      const data = compile?.args?.data;
      if (!data) return 'not compiled?';
      if (data.consumedCacheSize) return `${data.cacheRejected ? 'cache REJECTED' : 'cache used'} (${(data.consumedCacheSize / 1024).toFixed(0)} KiB)`;
      return 'compiled from source';
    };
    return Object.fromEntries(KINDS.map((kind) => [kind, verdict(SCRIPTS[kind])])) as Record<Kind, string>;
  } finally {
    await context.close();
    server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

console.log(`V8 code cache on the ${LOADS}th load of a page, Chromium on a profile kept on disk, by the server's Cache-Control:`);
for (const cacheControl of CACHE_CONTROLS) {
  console.log(`\nCache-Control: ${cacheControl}\n${'served by'.padEnd(18)}${KINDS.map((kind) => kind.padEnd(24)).join('')}`);
  for (const mode of MODES) {
    const verdicts = await probe(mode, cacheControl);
    console.log(`${mode.padEnd(18)}${KINDS.map((kind) => verdicts[kind].padEnd(24)).join('')}`.trimEnd());
  }
}
