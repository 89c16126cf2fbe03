import { readFileSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface Hot {
  name: string;
  where: string;
  ms: number;
}

export interface ProfileSummary {
  /** Time in the function itself. */
  self: Hot[];
  /** Time in the function and everything it called. */
  total: Hot[];
  /** The same, for the app's own code (src/) only: which component or module the time was spent under. */
  app: Hot[];
}

export interface RunningProfile {
  /** The page's `performance.now()` just after sampling started: maps page times onto the profile. */
  pageNowAtStart: number;
  stop(): Promise<Profile>;
}

/**
 * The page's main-thread CPU profile (V8's sampling profiler through CDP), to
 * find where a missed target's time goes. Only when BENCH_UI_PROFILE is set:
 * sampling costs time of its own.
 */
export async function startProfile(page: Page): Promise<RunningProfile> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const pageNowAtStart = await page.evaluate(() => performance.now());
  return {
    pageNowAtStart,
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      await cdp.detach();
      return profile as Profile;
    },
  };
}

export function saveProfile(path: string, profile: Profile): void {
  writeFileSync(path, JSON.stringify(profile));
}

/** Maps a built file's position to its source through the build's .js.map files (Node's own SourceMap). */
export function sourceResolver(outDir: string): (frame: CallFrame) => string {
  const maps = new Map<string, SourceMap | null>();
  return (frame) => {
    const file = frame.url.split('/').pop() ?? '';
    if (!file.endsWith('.js')) return file || '(native)';
    if (!maps.has(file)) {
      try {
        maps.set(file, new SourceMap(JSON.parse(readFileSync(join(outDir, 'assets', `${file}.map`), 'utf8'))));
      } catch {
        maps.set(file, null); // No map (the service worker's files): the built position is shown.
      }
    }
    const entry = maps.get(file)?.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry && 'originalSource' in entry && typeof entry.originalSource === 'string') {
      const source = entry.originalSource.replace(/^.*?\/(src|node_modules)\//, '$1/');
      return `${source}:${entry.originalLine + 1}`;
    }
    return `${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
  };
}

/**
 * Self and total time per function, largest first, over the whole profile or
 * only the samples inside `windows` (ms from the profile's start).
 */
export function summarize(
  profile: Profile,
  { resolve, windows, top = 15 }: { resolve: (frame: CallFrame) => string; windows?: readonly (readonly [number, number])[]; top?: number },
): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = new Map<number, { key: string; name: string; where: string } | null>();
  const describe = (id: number) => {
    if (!keyOf.has(id)) {
      const frame = byId.get(id)?.callFrame;
      const skip = !frame || ['(idle)', '(program)', '(root)'].includes(frame.functionName);
      const name = frame?.functionName || '(anonymous)';
      const where = frame && !skip ? resolve(frame) : '';
      keyOf.set(id, skip ? null : { key: `${name}@${where}`, name, where });
    }
    return keyOf.get(id)!;
  };

  const self = new Map<string, Hot>();
  const total = new Map<string, Hot>();
  const add = (into: Map<string, Hot>, d: { key: string; name: string; where: string }, ms: number) => {
    const entry = into.get(d.key) ?? { name: d.name, where: d.where, ms: 0 };
    entry.ms += ms;
    into.set(d.key, entry);
  };
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let at = 0;
  for (let i = 0; i < samples.length; i++) {
    at += (deltas[i] ?? 0) / 1000;
    const ms = (deltas[i + 1] ?? 0) / 1000;
    if (windows && !windows.some(([from, to]) => at >= from && at <= to)) continue;
    const leaf = describe(samples[i]!);
    if (leaf) add(self, leaf, ms);
    const seen = new Set<string>();
    for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id)) {
      const d = describe(id);
      if (!d || seen.has(d.key)) continue;
      seen.add(d.key);
      add(total, d, ms);
    }
  }
  const largest = (m: Map<string, Hot>) => [...m.values()].sort((a, b) => b.ms - a.ms).slice(0, top);
  const app = new Map([...total].filter(([, hot]) => hot.where.startsWith('src/')));
  return { self: largest(self), total: largest(total), app: largest(app) };
}

export function formatSummary(title: string, summary: ProfileSummary): string {
  const list = (hot: readonly Hot[]) => hot.map((f) => `    ${f.ms.toFixed(1).padStart(8)} ms  ${f.name}  ${f.where}`);
  return [
    `${title}`,
    '  self time:',
    ...list(summary.self),
    '  total time under the app’s own functions (src/):',
    ...list(summary.app),
  ].join('\n');
}
