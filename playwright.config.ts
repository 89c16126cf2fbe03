import { defineConfig, devices } from '@playwright/test';
import { findChromium, findTestChromium } from './scripts/chromium.mjs';

const ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// Overridable so that two checkouts can run their suites side by side without reusing each other's server.
const PORT = Number(process.env.PAUSEPOINT_E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  // One retry in CI only: a test that passes on its retry is reported as flaky (Playwright's
  // list and JSON reports say so), not hidden, and the closing notes name each one seen.
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // Recording a trace of every test cost its specs about 40 % more CPU (3 specs, 9 tests: 89.5 s
    // against 49.8 s of user + system time, same build and server), which a 2-core machine pays in
    // wall time. So a trace is recorded for a failed test's retry (CI retries once), and on demand
    // with `--trace on` (CONTRIBUTING.md).
    trace: 'on-first-retry',
    // A fresh context installs the service worker, which precaches every chunk (140 files, then 7.4 MB) while the
    // test runs: on 2 cores that was about 40 % of a test's CPU (12 tests: 38.0 → 22.2 s of user + system
    // time). So a test runs without it unless it is about what the service worker does — going offline,
    // notifications, its headers — and says so with `test.use({ serviceWorkers: 'allow' })`.
    serviceWorkers: 'block',
    // Tests run as a person who asked for reduced motion: the app then stops its two looping animations (the
    // typing dots and the running conversation's pulse, app.css), which otherwise redraw every frame while a
    // turn runs — 0.54 against 0.03 s of Chromium's CPU over 5 s of a running turn. No test is about them.
    reducedMotion: 'reduce',
    launchOptions: { executablePath: findTestChromium()?.path, args: ARGS },
  },
  projects: [
    // Chromium's headless shell where there is one (scripts/chromium.mjs says why), …
    { name: 'chromium', testIgnore: /notifications\.spec\.ts/, use: { ...devices['Desktop Chrome'] } },
    // … and the full browser for what the shell lacks: it has no notification platform, so a service worker's
    // `showNotification` shows nothing there.
    {
      name: 'chromium-browser',
      testMatch: /notifications\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: findChromium()?.path, args: ARGS } },
    },
  ],
  webServer: {
    // `npm test` (scripts/test-all.mjs) makes this build beside its other first checks and says so with
    // PAUSEPOINT_E2E_BUILT=1; then the server only serves it.
    command: `${process.env.PAUSEPOINT_E2E_BUILT === '1' ? '' : 'PAUSEPOINT_PROBES=1 npx vite build --logLevel warn && '}npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
    // MCP App views run on the second loopback origin: the app is tested at localhost, the sandbox proxy served by the same
    // preview at 127.0.0.1. The build puts it in the page's policy, the preview in the headers' (both must say it).
    env: { PAUSEPOINT_SANDBOX_ORIGIN: `http://127.0.0.1:${PORT}` },
    url: `http://localhost:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
