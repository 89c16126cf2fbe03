// `npm run conformance:mcp`: the official MCP conformance suite's client scenarios
// (@modelcontextprotocol/conformance, pinned in tests/conformance/package.json) run against
// Pausepoint's own client (tests/conformance/client.ts: the hub, the engine's gate, McpOAuth).
// Fails on any outcome outside tests/conformance/baseline.yml (a failure not listed, or a listed one that passes),
// as the suite's --expected-failures does, and prints each scenario's result.
//
// The suite needs Node ≥ 22; the project runs on Node 20. Node 22 comes from the npm registry
// as the `node` package, installed with the suite in tests/conformance (its own lockfile, npm ci
// on first run), so only this script runs on it: the client it starts runs on this Node.
//
// With `--report FILE` it writes { passed, failed, expected } (scenarios) for scripts/test-all.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const suiteDir = join(root, 'tests/conformance');
const REVISION = '2025-11-25';
// Each scenario mostly waits (process starts, the suite's own pauses): six at a time keep two cores busy without starving any.
const CONCURRENCY = 6;
const reportAt = process.argv.includes('--report') ? process.argv[process.argv.indexOf('--report') + 1] : null;

/** tests/conformance installed as its lockfile says (npm ci only when the lockfile changed since). */
function installSuite() {
  const installed = join(suiteDir, 'node_modules/.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(join(suiteDir, 'package-lock.json')).mtimeMs) return;
  console.log('Installing the conformance suite and Node 22 (tests/conformance, from the npm registry)…');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: suiteDir, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm ci in tests/conformance failed');
}

/**
 * The client as one file: the suite starts it once per scenario, all at once, and tsx compiling
 * the hub and engine for each made every one miss the suite's time limit on two cores.
 * esbuild is tsx's own dependency.
 */
async function bundleClient(out) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(suiteDir, 'client.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
}

/** Each scenario's verdict from the suite's results: passed when no check failed or warned (as the suite counts it). */
function verdicts(resultsDir) {
  const found = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === 'checks.json') {
        const scenario = relative(resultsDir, dir).replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
        const checks = JSON.parse(readFileSync(path, 'utf8'));
        found.set(scenario, checks.every((c) => c.status !== 'FAILURE' && c.status !== 'WARNING'));
      }
    }
  };
  if (existsSync(resultsDir)) walk(resultsDir);
  return found;
}

function baseline() {
  const text = readFileSync(join(suiteDir, 'baseline.yml'), 'utf8');
  return new Set([...text.matchAll(/^\s*-\s*([^\s#]+)/gm)].map((m) => m[1]));
}

/** The client scenarios the revision requires, and those it runs without scoring (extensions), from the suite's own list. */
function scenarios() {
  const requireSuite = createRequire(join(suiteDir, 'node_modules/@modelcontextprotocol/conformance/package.json'));
  const { parse } = requireSuite('yaml');
  const set = parse(readFileSync(join(suiteDir, `node_modules/@modelcontextprotocol/conformance/requirements/${REVISION}.yaml`), 'utf8'));
  return [...set.client.map((scenario) => ({ scenario, force: false })), ...set.not_scored.filter((entry) => entry.leg === 'client').map((entry) => ({ scenario: entry.scenario, force: true }))];
}

/** One scenario through the suite's CLI (on Node 22): its own server, our client, its checks in `resultsDir`. */
function runScenario({ scenario, force }, client, resultsDir) {
  const begun = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      join(suiteDir, 'node_modules/node/bin/node'),
      [
        join(suiteDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
        'client',
        '--command',
        `"${process.execPath}" "${client}"`,
        '--scenario',
        scenario,
        '--spec-version',
        REVISION,
        // Extensions sit on no revision's timeline: run anyway, as the suite's --requirements does.
        ...(force ? ['--force'] : []),
        '--timeout',
        '60000',
        '--output-dir',
        resultsDir,
      ],
      { cwd: dirname(resultsDir), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => resolve({ scenario, status, output, seconds: (Date.now() - begun) / 1000 }));
  });
}

installSuite();
const work = mkdtempSync(join(tmpdir(), 'pausepoint-conformance-'));
const client = join(work, 'client.mjs');
await bundleClient(client);
const resultsDir = join(work, 'results');
const started = Date.now();
// A few at a time: all at once (the suite's --suite mode) starved each other on two cores and timed out.
const queue = scenarios();
const runs = [];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) runs.push(await runScenario(next, client, resultsDir));
  }),
);
const expected = baseline();
const results = verdicts(resultsDir);
const rows = [...results].sort(([a], [b]) => (a < b ? -1 : 1));
const tally = { passed: 0, failed: 0, expected: 0 };
console.log(`\nMCP conformance, client scenarios (${REVISION} requirements), @modelcontextprotocol/conformance ${JSON.parse(readFileSync(join(suiteDir, 'package.json'), 'utf8')).devDependencies['@modelcontextprotocol/conformance']}:`);
for (const [scenario, passed] of rows) {
  const listed = expected.has(scenario);
  const verdict = passed ? (listed ? 'PASS, but listed in the baseline: remove it' : 'pass') : listed ? 'fail (expected: baseline)' : 'FAIL';
  if (passed && !listed) tally.passed++;
  else if (!passed && listed) tally.expected++;
  else tally.failed++;
  const seconds = runs.find((r) => r.scenario === scenario)?.seconds ?? 0;
  console.log(`  ${scenario.padEnd(42)} ${verdict.padEnd(28)} ${seconds.toFixed(1)}s`);
}
// What the suite said about each scenario that went other than the baseline expects (its checks, our client's log).
for (const [scenario, passed] of rows) {
  if (passed === expected.has(scenario)) {
    const said = runs.find((r) => r.scenario === scenario)?.output ?? '';
    console.log(`\n── ${scenario} ──\n${said.split('\n').filter((line) => line.trim() && !/\bINFO\b/.test(line)).slice(-40).join('\n')}`);
  }
}
const missing = runs.filter((r) => !results.has(r.scenario));
for (const r of missing) console.log(`\n── ${r.scenario}: no results ──\n${r.output.slice(-3000)}`);
tally.failed += missing.length;
console.log(`${tally.passed} passed, ${tally.failed} failed, ${tally.expected} expected failures (${((Date.now() - started) / 1000).toFixed(0)}s)`);
if (reportAt) writeFileSync(reportAt, JSON.stringify(tally));
process.exit(tally.failed === 0 ? 0 : 1);
