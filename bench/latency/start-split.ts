import type { ChromeTrace, TraceEvent } from './chrome-trace.ts';

/** Row d on the new agent worker's thread, from a trace of one opening (devtools.timeline, v8, IndexedDB); ms. */
export interface StartSplit {
  /** The thread's first event → its script's response. */
  fetchedMs: number;
  /** `v8.compileModule` of the worker's modules, summed: wall, and CPU. */
  compileMs: number;
  compileCpuMs: number;
  /** `v8.evaluateModule`, summed. */
  evaluateMs: number;
  evaluateCpuMs: number;
  /** The thread's first event → the database's open request, and that request → its success event's end (Dexie's open handler included). */
  openStartMs: number;
  openMs: number;
}

const ms = (us: number) => us / 1000;

/** The split of the agent worker's start in `trace` (the one worker whose compiled script is `agent.worker-*`), if found. */
export function startSplit(trace: ChromeTrace): StartSplit | undefined {
  const entry = trace.events.find((e) => e.name === 'v8.compileModule' && String(e.args?.data?.url ?? '').includes('/agent.worker-'));
  if (!entry) return undefined;
  const events = trace.events.filter((e) => e.pid === entry.pid && e.tid === entry.tid && e.ph !== 'M').sort((a, b) => a.ts - b.ts);
  const first = events[0]!.ts;
  const sum = (name: string, key: 'dur' | 'tdur') => events.filter((e) => e.name === name).reduce((total, e) => total + (e[key] ?? 0), 0);
  const response = events.find((e) => e.name === 'ResourceReceiveResponse');
  const openBegin = events.find((e) => e.name === 'IDBFactory::open' && e.ph === 'b');
  const success: TraceEvent | undefined = events.find((e) => e.name === 'IDBOpenDBRequest::onSuccess(database)');
  return {
    fetchedMs: ms((response?.ts ?? first) - first),
    compileMs: ms(sum('v8.compileModule', 'dur')),
    compileCpuMs: ms(sum('v8.compileModule', 'tdur')),
    evaluateMs: ms(sum('v8.evaluateModule', 'dur')),
    evaluateCpuMs: ms(sum('v8.evaluateModule', 'tdur')),
    openStartMs: openBegin ? ms(openBegin.ts - first) : NaN,
    openMs: openBegin && success ? ms(success.ts + (success.dur ?? 0) - openBegin.ts) : NaN,
  };
}
