/**
 * `npm run bench:import` (issue 35 point 1): a synthetic ChatGPT export —
 * 3,000 conversations of 50 message nodes each (150,000 messages, branches
 * left behind by an edit or a regeneration, images and a voice transcript in
 * multimodal parts, a python call and its output, hidden thoughts; over
 * 300 MB), made deterministically by src/conversation-file/testing/
 * synthetic-chatgpt-export.ts — imported through Settings › Import
 * conversations in Chromium, over a fresh production build. Prints the time
 * from choosing the file to the summary, and the import worker's heap peak
 * above its start (read over CDP from the moment the worker starts, before
 * its first line runs). Targets: ≤ 90 s, ≤ 64 MB.
 *
 * Environment: BENCH_IMPORT_CONVERSATIONS (default 3000), BENCH_IMPORT_KEEP=1
 * keeps the generated file (its path is printed).
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { syntheticConversations } from '../../src/conversation-file/testing/synthetic-chatgpt-export.ts';
import { startFakeLlm } from '../../tests/fake-llm/index.ts';
import { setUpEndpoint } from '../latency/set-up-endpoint.ts';
import { launchChromiumOnDisk } from '../ui/browser.ts';
import { buildApp, startPreview } from '../ui/preview-server.ts';
import { workerHeapFromStart } from './worker-heap-from-start.ts';

const CONVERSATIONS = Number(process.env.BENCH_IMPORT_CONVERSATIONS ?? 3_000);
const SPEC = { conversations: CONVERSATIONS, messagesPerConversation: 50, textBytes: 2_200 };
const API_KEY = 'sk-bench-import';
const MB = 1_000_000;

async function writeExport(path: string): Promise<number> {
  const out = createWriteStream(path);
  let first = true;
  for (const conversation of syntheticConversations(SPEC)) {
    if (!out.write(`${first ? '[' : ','}${conversation}`)) await once(out, 'drain');
    first = false;
  }
  out.end(']');
  await once(out, 'finish');
  return (await stat(path)).size;
}

const work = await mkdtemp(join(tmpdir(), 'pausepoint-bench-import-'));
const file = join(work, 'conversations.json');
const outDir = join(work, 'dist');
console.log(`bench:import — ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
let started = performance.now();
const bytes = await writeExport(file);
console.log(`export: ${SPEC.conversations} conversations, ${SPEC.conversations * SPEC.messagesPerConversation} messages, ${(bytes / MB).toFixed(1)} MB, made in ${((performance.now() - started) / 1000).toFixed(1)} s: ${file}`);

await buildApp(outDir);
const server = await startPreview(outDir);
const llm = await startFakeLlm({ requireKey: API_KEY });
// A profile on disk, as a person's is: an off-the-record context keeps IndexedDB in memory.
const context = await launchChromiumOnDisk(join(work, 'profile'), server.origin);
try {
  await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(server.origin);
  await setUpEndpoint(page, llm, API_KEY);
  await page.getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Import conversations' });
  const heap = await workerHeapFromStart(context, page, 'import.worker');

  started = performance.now();
  await panel.getByLabel('Import conversations').setInputFiles(file);
  const atStart = await heap.started;
  const summary = panel.locator('p[role="status"], p[role="alert"]');
  await summary.waitFor({ timeout: 15 * 60_000 });
  const seconds = (performance.now() - started) / 1000;
  const peak = await heap.stop();
  console.log(`summary: ${await summary.textContent()}`);
  console.log(`import: ${seconds.toFixed(1)} s (target ≤ 90 s), ${(bytes / MB / seconds).toFixed(1)} MB/s`);
  console.log(`import worker heap: ${(atStart / MB).toFixed(1)} MB at its start, peak ${(peak / MB).toFixed(1)} MB: ${((peak - atStart) / MB).toFixed(1)} MB above its start (target ≤ 64 MB)`);
} finally {
  await context.close();
  await llm.close();
  await server.stop();
  if (process.env.BENCH_IMPORT_KEEP !== '1') await rm(work, { recursive: true, force: true });
}
