import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
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

export default defineConfig({
  plugins: [
    svelte(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest,
      includeManifestIcons: false,
      workbox: {
        // Precaches the shell, the agent worker chunk and the icons: the installed app opens offline.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: 'index.html',
        // The first visit comes under the service worker at once; updates still wait for the user's Reload.
        clientsClaim: true,
        cleanupOutdatedCaches: true,
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
  preview: { host: '127.0.0.1' },
  server: { host: '127.0.0.1' },
  test: {
    // Two projects: Node for everything but the UI, and jsdom with Svelte's browser
    // build for src/ui (Svelte resolves to its server build under Node conditions,
    // where `mount` is unavailable). Each UI test file also says `@vitest-environment jsdom`.
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'tests/fake-llm/**/*.test.ts', 'tests/unit/**/*.test.ts'],
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
        },
      },
    ],
  },
});
