import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type TestProjectInlineConfiguration } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { readFileSync } from 'node:fs';
import type { Connect } from 'vite';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy, DEV_CONTENT_SECURITY_POLICY, SANDBOX_PROXY_HEADERS, securityHeaders } from './src/pwa/content-security-policy.ts';
import { SANDBOX_PROXY_PATH, sandboxOrigin } from './src/mcp/sandbox-origin.ts';
import { manifest } from './src/pwa/manifest.ts';
import { CLIENT_DOCUMENT_PATH, clientDocument } from './src/mcp/oauth/client-metadata-document.ts';

// End-to-end tests build an extra page that drives the worker without the UI.
const probes = process.env.PAUSEPOINT_PROBES === '1';
// MCP App views run in a sandbox proxy page on this second origin (src/mcp/sandbox-origin.ts); none: views are off.
const sandbox = sandboxOrigin(process.env.PAUSEPOINT_SANDBOX_ORIGIN?.trim());

/** The built index.html's policy gains `frame-src` the sandbox origin (and nothing when none is configured). */
function sandboxFrameSource(): Plugin {
  return {
    name: 'pausepoint:sandbox-frame-src',
    apply: 'build',
    transformIndexHtml: (html) => html.replace(CONTENT_SECURITY_POLICY, contentSecurityPolicy(sandbox)),
  };
}

/**
 * Serves the sandbox proxy page with its own headers, not the app's (whose policy its view would inherit and whose
 * frame-ancestors 'none' would keep the app from framing it): `vite preview` and `vite dev` serve both origins from
 * one server, the app on one address and the proxy on the other (`localhost` beside `127.0.0.1`).
 */
function sandboxProxyPage(): Plugin {
  const serve =
    (file: string): Connect.NextHandleFunction =>
    (req, res, next) => {
      if (req.url?.split('?')[0] !== SANDBOX_PROXY_PATH) return next();
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      for (const [name, value] of Object.entries(SANDBOX_PROXY_HEADERS)) res.setHeader(name, value);
      res.end(readFileSync(file));
    };
  return {
    name: 'pausepoint:sandbox-proxy-page',
    // The preview's own build (`--outDir`, as the benches serve a build in a folder of their own), not always ./dist.
    configurePreviewServer: (server) => void server.middlewares.use(serve(resolve(server.config.root, server.config.build.outDir, `.${SANDBOX_PROXY_PATH}`))),
    configureServer: (server) => void server.middlewares.use(serve(fileURLToPath(new URL(`./public${SANDBOX_PROXY_PATH}`, import.meta.url)))),
  };
}

/** The dev server serves index.html with the dev variant of its policy (see content-security-policy.ts). */
function devContentSecurityPolicy(): Plugin {
  return {
    name: 'pausepoint:dev-content-security-policy',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(CONTENT_SECURITY_POLICY, contentSecurityPolicy(sandbox).replace(CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY)),
  };
}

/**
 * The OAuth Client ID Metadata Document (src/mcp/oauth/client-metadata-document.ts) is named by its own URL,
 * which only whoever deploys the app knows: `PAUSEPOINT_PUBLIC_URL=https://host/path/ npm run build` ships
 * `client-metadata.json` for that address. Without it nothing is shipped, and Sign in registers dynamically.
 */
function oauthClientDocument(): Plugin {
  const publicUrl = process.env.PAUSEPOINT_PUBLIC_URL?.trim();
  return {
    name: 'pausepoint:oauth-client-document',
    apply: 'build',
    generateBundle() {
      if (!publicUrl) return;
      const appUrl = URL.canParse(publicUrl) ? new URL(publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`) : null;
      if (appUrl?.protocol !== 'https:') this.error(`PAUSEPOINT_PUBLIC_URL must be the https:// address index.html is served at, not ${publicUrl}`);
      this.emitFile({ type: 'asset', fileName: CLIENT_DOCUMENT_PATH, source: `${JSON.stringify(clientDocument(appUrl.href), null, 2)}\n` });
    },
  };
}

/**
 * Test files that need a fresh module graph: they replace a module with `vi.mock` (which cannot reach a module
 * its worker already loaded for another file), or they watch a module load on demand for the first time. Every
 * other file shares its worker's modules (`isolate: false`): evaluating zod, Dexie, the engine and jsdom's
 * Svelte again for each of 246 files was most of the unit suite's time (src/engine, storage, mcp and audit:
 * 140.6 → 39.6 s of CPU, 1,097 tests; src/ui: 168.0 → 47.5 s). A file that fails alone-green but red in the
 * suite, with a module another file loaded first, belongs here.
 */
const FRESH_MODULES = {
  node: ['src/sync/replicator-first-request.test.ts'],
  ui: ['src/ui/markdown/render-markdown.test.ts', 'src/ui/push/CardLink.test.ts'],
};

const NODE_TESTS = {
  extends: true,
  // pdf.js's modern build needs Node 22 (Promise.withResolvers and the like); its legacy build is the same
  // parser with those polyfilled, for the Node tests of pdf-text.ts. The app bundles the modern build.
  resolve: { alias: [{ find: /^pdfjs-dist$/, replacement: fileURLToPath(new URL('./node_modules/pdfjs-dist/legacy/build/pdf.mjs', import.meta.url)) }] },
  test: {
    name: 'node',
    include: ['src/**/*.test.ts', 'tests/fake-llm/**/*.test.ts', 'tests/fake-couch/**/*.test.ts', 'tests/couch/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    exclude: ['src/ui/**'],
    environment: 'node',
    // PBKDF2 at 600,000 iterations, servers started per file, 100,000-character texts: under a second each on a
    // quiet machine, past vitest's 5 s default on a loaded one (CI runs the whole suite on two cores).
    testTimeout: 20_000,
  },
} satisfies TestProjectInlineConfiguration;

const UI_TESTS = {
  extends: true,
  resolve: {
    conditions: ['browser'],
    // vite-plugin-pwa makes this module for a build only; the tests get a double they can drive (its file says why).
    alias: [{ find: /^virtual:pwa-register$/, replacement: fileURLToPath(new URL('./src/ui/testing/pwa-register-double.ts', import.meta.url)) }],
  },
  test: {
    name: 'ui',
    include: ['src/ui/**/*.test.ts'],
    environment: 'jsdom',
    // Unmounts rendered components after each test; gives each file's window IndexedDB (fake-indexeddb).
    setupFiles: ['@testing-library/svelte/vitest', './src/ui/testing/indexeddb-on-each-window.ts'],
    // A few tests render hundreds of rows or every prefix of a long text in jsdom:
    // about 2 s on a quiet machine, past vitest's 5 s default on a loaded one.
    testTimeout: 20_000,
  },
} satisfies TestProjectInlineConfiguration;

/** `project` as two: its files sharing modules (named as it is), and `fresh`, each in a module graph of its own. */
function splitByIsolation(project: typeof NODE_TESTS | typeof UI_TESTS, fresh: string[]): TestProjectInlineConfiguration[] {
  const { test } = project;
  return [
    { ...project, test: { ...test, isolate: false, exclude: [...('exclude' in test ? test.exclude : []), ...fresh] } },
    { ...project, test: { ...test, name: `${test.name} (fresh modules)`, include: fresh } },
  ];
}

export default defineConfig({
  // True only in the end-to-end tests' build: test-only hooks (engine-settings.ts) are dropped from every other one.
  define: { 'import.meta.env.PAUSEPOINT_PROBES': JSON.stringify(probes), 'import.meta.env.PAUSEPOINT_SANDBOX_ORIGIN': JSON.stringify(sandbox ?? '') },
  resolve: {
    // Dexie's package entry is a wrapper over its UMD build (to catch two copies of Dexie in one app); its ESM build
    // minifies ≈ 0.5 kB gzip smaller in the page's start-up chunk (npm run size). Every import here goes through
    // this alias, page, worker, service worker and tests alike, so there is still one copy per thread.
    alias: [{ find: /^dexie$/, replacement: fileURLToPath(new URL('./node_modules/dexie/dist/dexie.mjs', import.meta.url)) }],
  },
  plugins: [
    devContentSecurityPolicy(),
    sandboxFrameSource(),
    sandboxProxyPage(),
    oauthClientDocument(),
    svelte(),
    VitePWA({
      // Our own service worker (src/pwa/sw/sw.ts): the precache, plus notifications that can decide a card.
      strategies: 'injectManifest',
      srcDir: 'src/pwa/sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest,
      includeManifestIcons: false,
      injectManifest: {
        // Precaches the shell, the agent worker chunk and the icons: the installed app opens offline.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Workbox's default, said here because pdf.js's worker (≈ 1.2 MB, assets/pdf.worker.min-*.js) must stay
        // under it to be precached: a file over it is left out (with a build warning) and a PDF then needs the network.
        maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
        // One classic script: a module service worker would need `type: 'module'` at registration.
        rollupFormat: 'iife',
      },
    }),
  ],
  // The MCP client (v2) picks its JSON Schema validator by export condition: the browser's is @cfworker/json-schema (no eval), never Ajv.
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    // Vite's modulepreload polyfill (≈ 0.3 kB gzip of the start-up budget, npm run size) serves only browsers
    // without <link rel="modulepreload"> (Chromium since 66, Firefox 115, Safari 17). There a lazy chunk's
    // dependencies load when it imports them rather than beside it: slower to arrive, never wrong.
    modulePreload: { polyfill: false },
    sourcemap: true,
    rollupOptions: probes
      ? { input: { main: 'index.html', probe: 'tests/e2e/probe/worker-probe.html' } }
      : undefined,
  },
  // The built app as a host should serve it (public/_headers): the policy index.html carries plus frame-ancestors,
  // which only a header can set, on every file — the worker and service worker scripts included, whose
  // policy comes from their own response, not the page's — so the end-to-end tests run under it too.
  preview: { host: '127.0.0.1', headers: { ...securityHeaders(sandbox) } },
  server: { host: '127.0.0.1', headers: { 'Content-Security-Policy': contentSecurityPolicy(sandbox).replace(CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY) } },
  test: {
    // Vitest's default is one fork fewer than the cores: one on CI's two. Many files mostly wait (a pouchdb-server,
    // a child process streaming an import, server-everything starting), so two forks on two cores overlap those waits.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Node for everything but the UI, and jsdom with Svelte's browser build for src/ui (Svelte resolves to its
    // server build under Node conditions, where `mount` is unavailable); each UI test file also says
    // `@vitest-environment jsdom`. Each runs twice over: the files that share their worker's modules, and the
    // few that need a module graph of their own (FRESH_MODULES).
    projects: [...splitByIsolation(NODE_TESTS, FRESH_MODULES.node), ...splitByIsolation(UI_TESTS, FRESH_MODULES.ui)],
  },
});

