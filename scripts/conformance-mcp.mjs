// `npm run conformance:mcp`: the official MCP conformance suite's client scenarios
// (@modelcontextprotocol/conformance, pinned in tests/conformance/package.json) run against
// Pausepoint's own client (tests/conformance/client.ts: the hub, the engine's gate, McpOAuth).
// Each revision's client scenarios are run at that revision (2025-11-25: the initialize handshake;
// 2026-07-28: no session, server/discover), the client negotiating as the app does.
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
const REVISIONS = ['2025-11-25', '2026-07-28'];
// Each scenario mostly waits (process starts, the suite's own pauses): six at a time keep two cores busy without starving any.
const CONCURRENCY = 6;
const reportAt = process.argv.includes('--report') ? process.argv[process.argv.indexOf('--report') + 1] : null;
// `--only TEXT`: only the scenarios whose `revision scenario` contains TEXT (to look at one while fixing it).
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;

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

/** Each scenario's verdict from the suite's results (`revision scenario`): passed when no check failed or warned (as the suite counts it). */
function verdicts(resultsDir, revision, found) {
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === 'checks.json') {
        const scenario = relative(resultsDir, dir).replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
        const checks = JSON.parse(readFileSync(path, 'utf8'));
        found.set(`${revision} ${scenario}`, checks.every((c) => c.status !== 'FAILURE' && c.status !== 'WARNING'));
      }
    }
  };
  if (existsSync(resultsDir)) walk(resultsDir);
  return found;
}

/** The expected failures, as `revision scenario`: each revision's own list (tests/conformance/baseline.yml). */
function baseline() {
  const requireSuite = createRequire(join(suiteDir, 'node_modules/@modelcontextprotocol/conformance/package.json'));
  const { parse } = requireSuite('yaml');
  const lists = parse(readFileSync(join(suiteDir, 'baseline.yml'), 'utf8'));
  return new Set(REVISIONS.flatMap((revision) => (lists[revision] ?? []).map((scenario) => `${revision} ${scenario}`)));
}

/** The client scenarios each revision requires, and those it runs without scoring (extensions), from the suite's own lists. */
function scenarios() {
  const requireSuite = createRequire(join(suiteDir, 'node_modules/@modelcontextprotocol/conformance/package.json'));
  const { parse } = requireSuite('yaml');
  return REVISIONS.flatMap((revision) => {
    const set = parse(readFileSync(join(suiteDir, `node_modules/@modelcontextprotocol/conformance/requirements/${revision}.yaml`), 'utf8'));
    return [
      ...set.client.map((scenario) => ({ revision, scenario, force: false })),
      ...set.not_scored.filter((entry) => entry.leg === 'client').map((entry) => ({ revision, scenario: entry.scenario, force: true })),
    ];
  });
}

/** One scenario through the suite's CLI (on Node 22) at one revision: its own server, our client, its checks in `resultsDir`/revision. */
function runScenario({ revision, scenario, force }, client, resultsDir) {
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
        revision,
        // Extensions sit on no revision's timeline: run anyway, as the suite's --requirements does.
        ...(force ? ['--force'] : []),
        '--timeout',
        '60000',
        '--output-dir',
        join(resultsDir, revision),
      ],
      { cwd: dirname(resultsDir), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => resolve({ key: `${revision} ${scenario}`, status, output, seconds: (Date.now() - begun) / 1000 }));
  });
}

installSuite();
const work = mkdtempSync(join(tmpdir(), 'pausepoint-conformance-'));
const client = join(work, 'client.mjs');
await bundleClient(client);
const resultsDir = join(work, 'results');
const started = Date.now();
// A few at a time: all at once (the suite's --suite mode) starved each other on two cores and timed out.
const queue = scenarios().filter(({ revision, scenario }) => !only || `${revision} ${scenario}`.includes(only));
const runs = [];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) runs.push(await runScenario(next, client, resultsDir));
  }),
);
const expected = baseline();
const results = new Map();
for (const revision of REVISIONS) verdicts(join(resultsDir, revision), revision, results);
const rows = [...results].sort(([a], [b]) => (a < b ? -1 : 1));
const tally = { passed: 0, failed: 0, expected: 0 };
console.log(`\nMCP conformance, client scenarios (${REVISIONS.join(' and ')} requirements), @modelcontextprotocol/conformance ${JSON.parse(readFileSync(join(suiteDir, 'package.json'), 'utf8')).devDependencies['@modelcontextprotocol/conformance']}:`);
for (const [scenario, passed] of rows) {
  const listed = expected.has(scenario);
  const verdict = passed ? (listed ? 'PASS, but listed in the baseline: remove it' : 'pass') : listed ? 'fail (expected: baseline)' : 'FAIL';
  if (passed && !listed) tally.passed++;
  else if (!passed && listed) tally.expected++;
  else tally.failed++;
  const seconds = runs.find((r) => r.key === scenario)?.seconds ?? 0;
  console.log(`  ${scenario.padEnd(53)} ${verdict.padEnd(28)} ${seconds.toFixed(1)}s`);
}
// What the suite said about each scenario that went other than the baseline expects (its checks, our client's log).
for (const [scenario, passed] of rows) {
  if (passed === expected.has(scenario)) {
    const said = runs.find((r) => r.key === scenario)?.output ?? '';
    console.log(`\n── ${scenario} ──\n${said.split('\n').filter((line) => line.trim() && !/\bINFO\b/.test(line)).slice(-40).join('\n')}`);
  }
}
const missing = runs.filter((r) => !results.has(r.key));
for (const r of missing) console.log(`\n── ${r.key}: no results ──\n${r.output.slice(-3000)}`);
tally.failed += missing.length;
console.log(`${tally.passed} passed, ${tally.failed} failed, ${tally.expected} expected failures (${((Date.now() - started) / 1000).toFixed(0)}s)`);
if (reportAt) writeFileSync(reportAt, JSON.stringify(tally));
process.exit(tally.failed === 0 ? 0 : 1);
