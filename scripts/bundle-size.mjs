// Gzip sizes of a build's JavaScript, as the benchmark counts them:
//   - page JS loaded at start: the entry script in index.html and every chunk it
//     imports statically, followed transitively — what each page load downloads
//     and parses. The budget applies to this: issue 15's target is 75 kB; 72.5 kB
//     once zod's schemas left the start-up path, 78.1–79.7 kB while zod-config.ts
//     imported zod's core for the Content-Security-Policy's no-eval setting, 76.1 kB
//     since it sets that without importing zod, 75.4 kB with the payload and form
//     editors on demand (and the phone, notification and usage features of the
//     same stop), 72.5 kB since the service worker registers once the first
//     screen is up, 73.1 kB with the first screen read before the app mounts,
//     74.5 kB with sync's cards, pairing link and Runs on, 73.0 kB with what the
//     first screen does not use on demand (a form's draft, the pairing link's
//     handling, the MCP calls, the OAuth relay) and no modulepreload polyfill,
//     then issue 28's risk label on every card, the batch bar's check and the
//     keyboard shortcuts' keys (their dialogs and the bar load on demand):
//     75.8 kB with those, issue 28's rule notes and preview and issue 27's
//     options; 73.8 kB with Dexie's ESM build, and on demand what shows only
//     once asked for (a card's rule preview, the confirmation dialog, the
//     rename form, a payload's draft with its editor) and the occasional
//     worker calls (rules, options, a batch, listing models: option-calls.ts);
//     74.55 kB with issue 27's Search conversations field, Ctrl/⌘+K and the
//     opening of a conversation at a match (the index and results on demand);
//     75.0 kB with issue 27's attachments (Attach files and its input, the
//     drop and paste of files on the conversation, a message's files loading
//     on demand), less a card's "What the model will receive" formatter and
//     Settings › Backup's storage status, which moved on demand to make room.
//     74.9 kB with issue 32's decision view: its code (the view, its hash, the
//     MCP servers' read, the Approve all dialog's use) loads on demand, with
//     the first screen's records when they show a card (first-screen.ts); the
//     card's loader, its unsent-edit registry and the binding stay.
//     75.0 kB with issue 32's key rule (a key decides only a card the person
//     focused, on screen 500 ms: card-keys.svelte.ts), the Send that keeps
//     the message box focused into a new chat, and search's stored index
//     (Dexie version 13's tables): 74.99 kB. No room is left below the hard
//     limit: the next feature on the start path must move something on demand.
//     Kept just above the current size, so that it cannot creep back; 75 kB
//     is the product's hard limit.
//   - page JS every visit loads by itself, without waiting on it: the service
//     worker's registration (the update banner with workbox-window, once the main
//     thread is idle) and the approval alerts (fetched while the first screen's
//     records are read). Reported beside the start, not in its budget: the first
//     screen renders without any of it.
//   - page JS loaded on demand: chunks reached only through dynamic `import()`
//     (setup, settings and backup, the audit log). Precached by the service
//     worker, so they work offline, but no page load pays for them up front.
//   - the agent worker: `agent.worker-*.js` and the agent it loads (`run-agent-*.js`), with whatever they import
//     statically;
//     and, apart, what it imports on demand (the MCP client, loaded only once a
//     server is set up).
// Usage: node scripts/bundle-size.mjs [dist directory]   (after `vite build`)
// Exits with 1 when the page JS loaded at start is over budget.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

const PAGE_BUDGET_KB = 75.0;
// Dynamic imports every page load makes by itself, which the first screen does not wait for (see above).
const EVERY_VISIT = [/^UpdateBanner\b/, /^workbox-window\b/, /^FollowApprovals\b/, /^approval-alerts\b/];
const dist = process.argv[2] ?? 'dist';
const assets = join(dist, 'assets');
if (!existsSync(join(dist, 'index.html'))) {
  console.error(`No build in ${dist}: run \`vite build\` first.`);
  process.exit(2);
}

const kb = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
const gzipped = new Map();
function gzipSize(file) {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(assets, file))).length);
  return gzipped.get(file);
}

// Rolldown writes a chunk's static imports and re-exports as `import…from"./x.js"`,
// `import"./x.js"` or `export…from"./x.js"`; a dynamic one is `import("./x.js")`
// (any quote, backticks included).
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g;
// Vite's preload helper lists a dynamic import's dependencies as plain strings: "assets/x.js".
const LISTED_ASSET = /["'`](?:\/?assets\/)([\w.-]+\.js)["'`]/g;

function importsOf(file, pattern) {
  const code = readFileSync(join(assets, file), 'utf8');
  return [...code.matchAll(pattern)].map((m) => posix.basename(m[1])).filter((name) => existsSync(join(assets, name)));
}

/** The files reached from `roots` through static imports. */
function staticClosure(roots) {
  const seen = new Set();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...importsOf(file, STATIC_IMPORT));
  }
  return seen;
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="[^"]*\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
if (entries.length === 0) {
  console.error(`No module script in ${join(dist, 'index.html')}.`);
  process.exit(2);
}

const allJs = readdirSync(assets).filter((f) => f.endsWith('.js'));
// The worker's entry is small (agent.worker.ts) and loads the agent (run-agent.ts) with the first intent or once the
// first screen is painted: both are what a worker runs before it answers, so both count as its start.
const workerRoots = allJs.filter((f) => f.startsWith('agent.worker') || f.startsWith('run-agent'));
const worker = staticClosure(workerRoots);
const workerOnDemand = new Set();
for (const found of staticClosure([...worker].flatMap((f) => importsOf(f, DYNAMIC_IMPORT)))) if (!worker.has(found)) workerOnDemand.add(found);
const atStart = staticClosure(entries);
const everyVisit = [...staticClosure(allJs.filter((f) => EVERY_VISIT.some((p) => p.test(f))))].filter((f) => !atStart.has(f));

// Everything the page can reach, following dynamic imports as well.
const reachable = new Set(atStart);
const frontier = [...atStart];
while (frontier.length > 0) {
  const file = frontier.pop();
  const next = [...importsOf(file, DYNAMIC_IMPORT), ...importsOf(file, LISTED_ASSET)].filter((f) => !workerRoots.includes(f));
  for (const found of staticClosure(next)) {
    if (reachable.has(found)) continue;
    reachable.add(found);
    frontier.push(found);
  }
}
const onDemand = [...reachable].filter((f) => !atStart.has(f) && !everyVisit.includes(f));
// Chunks of other pages (the e2e probe page) and anything unreferenced: listed, not counted.
const other = allJs.filter((f) => !reachable.has(f) && !worker.has(f) && !workerOnDemand.has(f));

const sum = (files) => [...files].reduce((total, f) => total + gzipSize(f), 0);
function report(title, files) {
  const list = [...files].sort((a, b) => gzipSize(b) - gzipSize(a));
  console.log(`${title}: ${kb(sum(list))} gzip`);
  for (const f of list) console.log(`  ${kb(gzipSize(f)).padStart(10)}  ${f}`);
}

report('Page JS loaded at start', atStart);
report('Page JS every visit loads without waiting on it', everyVisit);
report('Page JS loaded on demand', onDemand);
report('Worker JS', worker);
report('Worker JS loaded on demand', workerOnDemand);
if (other.length > 0) report('Other JS (not reachable from index.html, not counted)', other);
const pageStart = sum(atStart);
console.log('');
console.log(`page JS at start:     ${kb(pageStart)} gzip (budget ${PAGE_BUDGET_KB} kB)`);
console.log(`page JS beside it:    ${kb(sum(everyVisit))} gzip, every visit, not waited for`);
console.log(`page JS, all chunks:  ${kb(pageStart + sum(everyVisit) + sum(onDemand))} gzip`);
console.log(`worker JS:            ${kb(sum(worker))} gzip`);
console.log(`worker JS on demand:  ${kb(sum(workerOnDemand))} gzip`);
if (pageStart > PAGE_BUDGET_KB * 1000) {
  console.error(`Over budget: the page loads ${kb(pageStart)} of JavaScript at start; the budget is ${PAGE_BUDGET_KB} kB.`);
  process.exitCode = 1;
}
