// The README's test command: every check the project has, in order, with one
// closing line `N passed, N failed` that sums them all. Static checks count as
// one test each; vitest and Playwright report their own counts (read from
// their JSON reporters, not scraped from their human output), and the MCP
// conformance suite its scenarios (scripts/conformance-mcp.mjs --report).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from './chromium.mjs';

const reports = mkdtempSync(join(tmpdir(), 'pausepoint-test-'));
const tally = { passed: 0, failed: 0 };
const lines = [];

/** Runs one step with its output shown as it comes; resolves when it ends. */
function step(name, cmd, args, env = {}) {
  console.log(`\n── ${name} ──`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('close', (status) => resolve({ ok: status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) }));
  });
}

/**
 * `step`, for running beside others: its output is held and printed whole when it ends, so
 * the log reads one step at a time whatever order they finish in.
 */
function stepAside(name, cmd, args, env = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`\n── ${name} ──`);
      process.stdout.write(Buffer.concat(output));
      resolve({ ok: status === 0, seconds });
    });
  });
}

function countCheck(name, { ok, seconds }) {
  if (ok) tally.passed++;
  else tally.failed++;
  lines.push(`${name}: ${ok ? 'ok' : 'FAILED'} (${seconds}s)`);
}

function countVitest(file) {
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: report.numPassedTests, failed: report.numFailedTests + (report.numRuntimeErrors ?? 0) };
}

function countPlaywright(file) {
  if (!existsSync(file)) return undefined;
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  // `skipped` counts as neither: the project forbids skipped tests (see the before-stop hook).
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected + (stats.skipped ?? 0), flaky: stats.flaky };
}

function suite(name, counted, { ok, seconds }) {
  const counts = counted() ?? { passed: 0, failed: 1 };
  // A runner that crashed before writing its report still fails the suite.
  if (!ok && counts.failed === 0) counts.failed = 1;
  tally.passed += counts.passed;
  tally.failed += counts.failed;
  const flaky = counts.flaky ? `, ${counts.flaky} passed only on a retry` : '';
  const expected = counts.expected ? `, ${counts.expected} expected failures (baseline)` : '';
  lines.push(`${name}: ${counts.passed} passed, ${counts.failed} failed${flaky}${expected} (${seconds}s)`);
}

const started = Date.now();
// Side by side, on the machine's cores: the type check's three programs (`npm run check`: the app with
// svelte-check, then the agent worker's and the service worker's own libraries with tsc), the lint and the
// end-to-end tests' build (which Playwright's webServer would otherwise make later, alone), each one core's
// work: about 50, 19, 9, 35 and 15 s of CPU. Not the MCP conformance suite: its client waits 20 s for each
// scenario's server, and beside these it missed that wait at load 22.
const checks = ['check:app', 'check:worker', 'check:sw'].map((script) => stepAside(`typecheck (${script})`, 'npm', ['run', '--silent', script]));
const [lint, e2eBuild, ...typechecks] = await Promise.all([
  stepAside('lint', 'npx', ['--no-install', 'eslint', '.']),
  stepAside('build for the end-to-end tests', 'npx', ['--no-install', 'vite', 'build', '--logLevel', 'warn'], {
    PAUSEPOINT_PROBES: '1',
    // The same second origin playwright.config.ts gives its own build: MCP App views' sandbox proxy (issue 36).
    PAUSEPOINT_SANDBOX_ORIGIN: `http://127.0.0.1:${process.env.PAUSEPOINT_E2E_PORT ?? 4173}`,
  }),
  ...checks,
]);
// One check, as `npm run check` is: it passes when all three programs do, and took as long as the slowest.
countCheck('typecheck', { ok: typechecks.every((part) => part.ok), seconds: Math.max(...typechecks.map((part) => Number(part.seconds))).toFixed(1) });
countCheck('lint', lint);

const vitestReport = join(reports, 'vitest.json');
suite('unit', () => countVitest(vitestReport),
  await step('unit tests (vitest)', 'npx', ['--no-install', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]),
);

// The official MCP conformance suite's client scenarios, each counted as one test; the failures its
// baseline expects (tests/conformance/baseline.yml, each with its reason) count as neither. Alone: it starts each
// revision's scenarios all at once (about 33 s of two busy cores), and beside the unit tests the two only took
// longer than one after the other (210 s against 125 + 67, measured with its earlier runner).
const conformanceReport = join(reports, 'conformance.json');
suite('MCP conformance', () => (existsSync(conformanceReport) ? JSON.parse(readFileSync(conformanceReport, 'utf8')) : undefined),
  await step('MCP conformance suite (client scenarios)', 'node', ['scripts/conformance-mcp.mjs', '--report', conformanceReport]),
);

const browser = ensureChromium();
console.log(`\nChromium: ${browser.path} (${browser.source})`);
const playwrightReport = join(reports, 'playwright.json');
// The README's pictures come from one script: it must still make them, each a PNG of its stated
// size (into a folder of this run's, so a test run leaves the committed pictures as they are).
// It serves the build the end-to-end tests use rather than building again (or builds, if there is none).
const pictures = join(reports, 'images');
const screenshots = (run) =>
  run('screenshots', 'npx', ['--no-install', 'tsx', 'scripts/screenshots.ts'], {
    SCREENSHOTS_OUT: pictures,
    ...(existsSync('dist/index.html') ? { SCREENSHOTS_DIST: 'dist' } : {}),
  });
// Beside the end-to-end tests when the build above is there (on a port of its own): alone it takes about 17 s and 27 s
// of CPU. Without that build, after them: their webServer builds it.
const [e2e, pictured] = await Promise.all([
  step('end-to-end tests (Playwright, Chromium)', 'npx', ['--no-install', 'playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
    // The build made above: playwright.config.ts's webServer then only serves it. If it failed, the webServer builds (and says why).
    ...(e2eBuild.ok ? { PAUSEPOINT_E2E_BUILT: '1' } : {}),
  }),
  e2eBuild.ok ? screenshots(stepAside) : undefined,
]);
suite('e2e', () => countPlaywright(playwrightReport), e2e);
countCheck('screenshots', pictured ?? (await screenshots(step)));
countCheck('screenshots are the README’s', await step('screenshots are the README’s', 'node', ['scripts/check-screenshots.mjs', pictures]));

console.log('\n── summary ──');
for (const line of lines) console.log(line);
console.log(`total time: ${((Date.now() - started) / 1000).toFixed(0)}s`);
console.log(`${tally.passed} passed, ${tally.failed} failed`);
process.exit(tally.failed === 0 ? 0 : 1);
