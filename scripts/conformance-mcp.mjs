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

/**
 * Each scenario's verdict from the suite's results (`revision scenario` → { passed, dir }): passed when no check
 * failed or warned (as the suite counts it). `dir` holds its checks.json and our client's stdout.txt and stderr.txt.
 */
function verdicts(resultsDir, revision, found) {
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === 'checks.json') {
        const scenario = relative(resultsDir, dir).replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
        const checks = JSON.parse(readFileSync(path, 'utf8'));
        found.set(`${revision} ${scenario}`, { passed: checks.every((c) => c.status !== 'FAILURE' && c.status !== 'WARNING'), dir });
      }
    }
  };
  if (existsSync(resultsDir)) walk(resultsDir);
  return found;
}

/** What to show of a scenario that went other than the baseline expects: its failed checks, then our client's log. */
function told(dir) {
  const checks = JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8'));
  const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => `${c.status} ${c.name}: ${c.errorMessage ?? c.description}`);
  const log = ['stdout.txt', 'stderr.txt'].flatMap((name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8').split('\n') : []));
  return [...failed, ...log.filter((line) => line.trim() && !/\bINFO\b/.test(line)).slice(-30)].join('\n');
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

/**
 * The suite's CLI (on Node 22) with our client as its command. Its own start costs about 0.75 s of CPU, so a
 * whole revision runs in one: `--requirements` runs exactly the scenarios that revision requires (and those it
 * runs without scoring), all at once, each with its own server. `--scenario` runs one (`--only`).
 */
function runSuite(args, client, resultsDir, revision) {
  const begun = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      join(suiteDir, 'node_modules/node/bin/node'),
      [
        join(suiteDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
        'client',
        '--command',
        `"${process.execPath}" "${client}"`,
        ...args,
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
    child.on('close', (status) => resolve({ revision, status, output, seconds: (Date.now() - begun) / 1000 }));
  });
}

installSuite();
const work = mkdtempSync(join(tmpdir(), 'pausepoint-conformance-'));
const client = join(work, 'client.mjs');
await bundleClient(client);
const resultsDir = join(work, 'results');
const started = Date.now();
const wanted = scenarios().filter(({ revision, scenario }) => !only || `${revision} ${scenario}`.includes(only));
// One revision at a time, its scenarios all at once: 25 and 39 of them took 13 and 19 s on two cores,
// against 66 s for both with one CLI per scenario, six at a time.
const runs = [];
for (const revision of REVISIONS) {
  const mine = wanted.filter((entry) => entry.revision === revision);
  if (only) for (const { scenario, force } of mine) runs.push(await runSuite(['--scenario', scenario, '--spec-version', revision, ...(force ? ['--force'] : [])], client, resultsDir, revision));
  else if (mine.length > 0) runs.push(await runSuite(['--requirements', revision], client, resultsDir, revision));
}
const expected = baseline();
const results = new Map();
for (const revision of REVISIONS) verdicts(join(resultsDir, revision), revision, results);
const tally = { passed: 0, failed: 0, expected: 0 };
console.log(`\nMCP conformance, client scenarios (${REVISIONS.join(' and ')} requirements), @modelcontextprotocol/conformance ${JSON.parse(readFileSync(join(suiteDir, 'package.json'), 'utf8')).devDependencies['@modelcontextprotocol/conformance']}:`);
if (!only) for (const run of runs) console.log(`  ${run.revision}: ${run.seconds.toFixed(1)}s`);
const rows = [...results].sort(([a], [b]) => (a < b ? -1 : 1));
for (const [scenario, { passed }] of rows) {
  const listed = expected.has(scenario);
  const verdict = passed ? (listed ? 'PASS, but listed in the baseline: remove it' : 'pass') : listed ? 'fail (expected: baseline)' : 'FAIL';
  if (passed && !listed) tally.passed++;
  else if (!passed && listed) tally.expected++;
  else tally.failed++;
  console.log(`  ${scenario.padEnd(53)} ${verdict}`);
}
for (const [scenario, { passed, dir }] of rows) if (passed === expected.has(scenario)) console.log(`\n── ${scenario} ──\n${told(dir)}`);
// A scenario the revision requires with no results at all (the suite's CLI failed before writing them) fails too.
const missing = wanted.map(({ revision, scenario }) => `${revision} ${scenario}`).filter((key) => !results.has(key));
for (const key of missing) console.log(`\n── ${key}: no results ──`);
if (missing.length > 0) for (const run of runs) console.log(`\n── the suite's CLI at ${run.revision} (exit ${run.status}) ──\n${run.output.slice(-3000)}`);
tally.failed += missing.length;
console.log(`${tally.passed} passed, ${tally.failed} failed, ${tally.expected} expected failures (${((Date.now() - started) / 1000).toFixed(0)}s)`);
if (reportAt) writeFileSync(reportAt, JSON.stringify(tally));
process.exit(tally.failed === 0 ? 0 : 1);
