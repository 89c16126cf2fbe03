import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_HEADER, DEV_CONTENT_SECURITY_POLICY } from './src/pwa/content-security-policy.ts';
import { manifest } from './src/pwa/manifest.ts';

/**
 * The MCP SDK's client imports its Ajv validator even when handed another; Ajv
 * compiles with `new Function` (refused by the CSP) and weighs about 30 kB gzip.
 * The worker always passes the CfWorker validator, so its build gets a stub.
 * Worker builds only: tests run the SDK's own server, which uses Ajv in Node.
 */
const withoutAjv: Plugin = {
  name: 'pausepoint:mcp-without-ajv',
  enforce: 'pre',
  resolveId(source, importer) {
    if (importer?.includes('@modelcontextprotocol/sdk') && /\/validation\/ajv-provider\.js$/.test(source)) {
      return fileURLToPath(new URL('./src/mcp/no-ajv.ts', import.meta.url));
    }
    return null;
  },
};

// End-to-end tests build an extra page that drives the worker without the UI.
const probes = process.env.PAUSEPOINT_PROBES === '1';

/** The dev server serves index.html with the dev variant of its policy (see content-security-policy.ts). */
function devContentSecurityPolicy(): Plugin {
  return {
    name: 'pausepoint:dev-content-security-policy',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY),
  };
}

export default defineConfig({
  plugins: [
    devContentSecurityPolicy(),
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
        // One classic script: a module service worker would need `type: 'module'` at registration.
        rollupFormat: 'iife',
      },
    }),
  ],
  worker: { format: 'es', plugins: () => [withoutAjv] },
  build: {
    target: 'es2022',
    sourcemap: true,
    rollupOptions: probes
      ? { input: { main: 'index.html', probe: 'tests/e2e/probe/worker-probe.html' } }
      : undefined,
  },
  // The built app under the policy index.html carries, plus frame-ancestors, which only a header can set.
  preview: { host: '127.0.0.1', headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY_HEADER } },
  server: { host: '127.0.0.1', headers: { 'Content-Security-Policy': DEV_CONTENT_SECURITY_POLICY } },
  test: {
    // Two projects: Node for everything but the UI, and jsdom with Svelte's browser
    // build for src/ui (Svelte resolves to its server build under Node conditions,
    // where `mount` is unavailable). Each UI test file also says `@vitest-environment jsdom`.
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'tests/fake-llm/**/*.test.ts', 'tests/fake-couch/**/*.test.ts', 'tests/couch/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          exclude: ['src/ui/**'],
          environment: 'node',
        },
      },
      {
        extends: true,
        resolve: { conditions: ['browser'] },
        test: {
          name: 'ui',
          include: ['src/ui/**/*.test.ts'],
          environment: 'jsdom',
          // Unmounts rendered components after each test.
          setupFiles: ['@testing-library/svelte/vitest'],
          // A few tests render hundreds of rows or every prefix of a long text in jsdom:
          // about 2 s on a quiet machine, past vitest's 5 s default on a loaded one.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
