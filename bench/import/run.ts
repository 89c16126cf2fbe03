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
import { runFileTask, settingsInChromium } from './settings-in-chromium.ts';

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
console.log(`bench:import — ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const started = performance.now();
const bytes = await writeExport(file);
console.log(`export: ${SPEC.conversations} conversations, ${SPEC.conversations * SPEC.messagesPerConversation} messages, ${(bytes / MB).toFixed(1)} MB, made in ${((performance.now() - started) / 1000).toFixed(1)} s: ${file}`);

const { context, page, close } = await settingsInChromium(work, API_KEY);
try {
  const { seconds, summary, atStart, peak } = await runFileTask(context, page, 'Import conversations', 'Import conversations', file);
  console.log(`summary: ${summary}`);
  console.log(`import: ${seconds.toFixed(1)} s (target ≤ 90 s), ${(bytes / MB / seconds).toFixed(1)} MB/s`);
  console.log(`import worker heap: ${(atStart / MB).toFixed(1)} MB at its start, peak ${(peak / MB).toFixed(1)} MB: ${((peak - atStart) / MB).toFixed(1)} MB above its start (target ≤ 64 MB)`);
} finally {
  await close();
  if (process.env.BENCH_IMPORT_KEEP !== '1') await rm(work, { recursive: true, force: true });
}
