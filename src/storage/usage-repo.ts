import Dexie, { liveQuery, type Observable } from 'dexie';
import { addUsage, type CallUsage, type ModelTotals } from '../engine/records/index.ts';
import type { PausepointDb } from './db.ts';

export interface DatedUsage {
  usage: CallUsage;
  at: number;
  conversationId: string;
}

/**
 * Every model call's usage since `since` (ms), across conversations: each
 * answer's, through the index of answers with usage by time (db.ts, version
 * 12), and each MCP sampling call's (kept on its conversation), from the
 * conversations touched since then (a sampling call stored moves `updatedAt`).
 * Reads only what falls in the period: the spending check runs it before each
 * model call, and Settings' totals on every change a sync or a run writes.
 */
export async function usageSince(db: PausepointDb, since: number): Promise<DatedUsage[]> {
  return db.transaction('r', db.conversations, db.messages, async () => {
    const answers = await db.messages.where('[createdAt+usage.model]').aboveOrEqual([since, Dexie.minKey]).toArray();
    const out: DatedUsage[] = [];
    // An answer from a file (src/inert/) is history: what it used was not spent here.
    for (const m of answers) if (m.role === 'assistant' && m.usage && m.fromFile !== true) out.push({ usage: m.usage, at: m.createdAt, conversationId: m.conversationId });
    const touched = await db.conversations.where('updatedAt').aboveOrEqual(since).toArray();
    for (const { id, sampled } of touched) {
      for (const call of sampled ?? []) if (call.at >= since) out.push({ usage: call.usage, at: call.at, conversationId: id });
    }
    return out;
  });
}

/**
 * Stores what an approved MCP sampling call used on the conversation it was
 * made for, in one transaction: added to its per-model totals (its header and
 * Settings count it) and listed with its time (the spending check before the
 * next model call, and the day's spending, count it). A conversation deleted
 * meanwhile records nothing.
 */
export async function recordSampledUsage(db: PausepointDb, conversationId: string, usage: CallUsage, at: number): Promise<void> {
  await db.conversations.where('id').equals(conversationId).modify((conversation) => {
    conversation.usage = addUsage(conversation.usage, usage);
    conversation.sampled = [...(conversation.sampled ?? []), { at, usage }];
    conversation.updatedAt = Math.max(conversation.updatedAt, at);
  });
}

/** The start of the local day that `now` falls in. */
export function startOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The start of the local month that `now` falls in. */
export function startOfMonth(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  d.setDate(1);
  return d.getTime();
}

export interface UsageSummary {
  /** Every conversation's totals, per model (conversations deleted since are not counted). */
  total: ModelTotals[];
  /** Each call's usage since the start of this month. */
  month: CallUsage[];
}

/** The Settings totals, live: all conversations' totals, and this month's calls. */
export function liveUsageSummary(db: PausepointDb, now: () => number = Date.now): Observable<UsageSummary> {
  return liveQuery(async () => {
    let total: ModelTotals[] = [];
    await db.conversations.each((c) => {
      for (const t of c.usage ?? []) total = addTotals(total, t);
    });
    const month = (await usageSince(db, startOfMonth(now()))).map((d) => d.usage);
    return { total, month };
  });
}

function addTotals(list: ModelTotals[], t: ModelTotals): ModelTotals[] {
  const at = list.findIndex((x) => x.model === t.model);
  if (at === -1) return [...list, { ...t }];
  const x = list[at]!;
  const merged = { ...x, prompt: x.prompt + t.prompt, completion: x.completion + t.completion, cached: x.cached + t.cached, reasoning: x.reasoning + t.reasoning, calls: x.calls + t.calls };
  return list.map((y, i) => (i === at ? merged : y));
}
