import Dexie from 'dexie';
import type { Conversation, Message } from '../engine/records/index.ts';
import type { SyncDevice, SyncDocState } from '../storage/records/sync-records.ts';
import { sharedPushSettings } from '../push/shared-push-settings.ts';
import { pushRuleEvents } from './push-rule-events.ts';
import { recordHash } from './record-hash.ts';
import type { SyncContext } from './sync-context.ts';
import { syncKey, type SyncDocument, type SyncKind } from './sync-document.ts';

/** Documents per `_bulk_docs` request: small enough to stay well under any server's request limit. */
const BATCH = 200;
/** How often a device says it is still there (its document's `lastSeenAt`), while it syncs. */
export const HEARTBEAT_MS = 5 * 60_000;

interface Outgoing {
  kind: SyncKind;
  id: string;
  record: unknown;
  hash: string;
  state: SyncDocState | undefined;
}

export interface PushResult {
  pushed: number;
  /** Documents the server refused as stale (another writer's revision): read back, pushed again next time. */
  conflicts: number;
}

/**
 * Pushes what changed here since the last push: the conversations this
 * device runs (with their messages, cards and ledger entries), every audit
 * event, the rule events the server lacks, this device's push settings and its own document. Another device's
 * conversations are never pushed from here: each record has one writer, its
 * conversation's owner, so the server never holds two versions of one to
 * merge. A record is pushed when its hash differs from what was last pushed
 * or applied; each push adds one to its version counter.
 *
 * A conversation whose record is unchanged is skipped whole: everything of a
 * conversation that other devices show moves its record too (a message its
 * `nextSeq`, a decision its state), except text while it streams and a
 * ledger entry's `started`, which arrive with the change that ends them.
 */
export async function pushChanges(ctx: SyncContext): Promise<PushResult> {
  const outgoing: Outgoing[] = [];
  const watermarks = new Map<string, number>();
  const { db } = ctx;

  const owned = (await db.conversations.toArray()).filter((c) => c.ownerDevice === undefined || c.ownerDevice.id === ctx.device.id);
  const withOwner = owned.map((c): Conversation => (c.ownerDevice ? c : { ...c, ownerDevice: ctx.device }));
  const conversationStates = await statesOf(ctx, 'conversation', withOwner.map((c) => c.id));
  for (const [i, conversation] of withOwner.entries()) {
    const state = conversationStates[i];
    const hash = recordHash(conversation);
    if (state?.hash === hash) continue;
    const from = state?.from ?? 0;
    const [messages, pausePoints, ledger] = await Promise.all([
      db.messages.where('[conversationId+seq]').between([conversation.id, from], [conversation.id, Dexie.maxKey]).toArray(),
      db.pausePoints.where('conversationId').equals(conversation.id).toArray(),
      db.ledger.where('conversationId').equals(conversation.id).toArray(),
    ]);
    await collect(ctx, outgoing, 'message', messages);
    await collect(ctx, outgoing, 'pausePoint', pausePoints);
    await collect(ctx, outgoing, 'ledger', ledger);
    outgoing.push({ kind: 'conversation', id: conversation.id, record: conversation, hash, state });
    watermarks.set(conversation.id, stableBelow(messages, conversation.nextSeq));
  }
  await collect(ctx, outgoing, 'auditEvent', await db.auditEvents.toArray());
  await collectDevice(ctx, outgoing);
  // Push settings, set up on one device for all: what this device holds, sent when it changes.
  const push = await sharedPushSettings(db, ctx.device.id);
  if (push) await collect(ctx, outgoing, 'pushSettings', [push]);

  let pushed = 0;
  let conflicts = 0;
  // Conversations whose own documents did not all go: a conversation comes after its documents, maybe a batch later.
  const failed = new Set<string>();
  for (let start = 0; start < outgoing.length; start += BATCH) {
    const batch = outgoing.slice(start, start + BATCH);
    const result = await pushBatch(ctx, batch, watermarks, failed);
    pushed += result.pushed;
    conflicts += result.conflicts;
  }
  // Rules go as their events, each created once (push-rule-events.ts), never as whole records.
  pushed += (await pushRuleEvents(ctx)).pushed;
  return { pushed, conflicts };
}

/** The first `seq` from which a conversation's messages may still change: its first streaming message, or the end. */
function stableBelow(messages: readonly Message[], nextSeq: number): number {
  const streaming = messages.find((m) => m.role === 'assistant' && m.status === 'streaming');
  return streaming ? streaming.seq : nextSeq;
}

async function statesOf(ctx: SyncContext, kind: SyncKind, ids: readonly string[]): Promise<(SyncDocState | undefined)[]> {
  return ctx.db.syncDocs.bulkGet(ids.map((id) => syncKey(kind, id)));
}

async function collect(ctx: SyncContext, outgoing: Outgoing[], kind: SyncKind, records: readonly { id: string }[]): Promise<void> {
  const states = await statesOf(ctx, kind, records.map((r) => r.id));
  for (const [i, record] of records.entries()) {
    const hash = recordHash(record);
    const state = states[i];
    if (state?.hash !== hash) outgoing.push({ kind, id: record.id, record, hash, state });
  }
}

/**
 * This device's own document: pushed when its name changes, and as a
 * heartbeat. It carries no key: the others pin this device's keys from the
 * membership log, never from here.
 */
async function collectDevice(ctx: SyncContext, outgoing: Outgoing[]): Promise<void> {
  const { id, name } = ctx.device;
  const [state] = await statesOf(ctx, 'device', [id]);
  const seen = await ctx.db.syncDevices.get(id);
  const hash = recordHash({ id, name });
  const now = ctx.now();
  if (state?.hash === hash && seen && now - seen.lastSeenAt < HEARTBEAT_MS) return;
  const record: SyncDevice = { v: 1, id, name, lastSeenAt: now };
  // Shown in this device's own list too ("This device"), as the others see it.
  await ctx.db.syncDevices.put(record);
  outgoing.push({ kind: 'device', id, record, hash, state });
}

async function pushBatch(ctx: SyncContext, batch: readonly Outgoing[], watermarks: ReadonlyMap<string, number>, failed: Set<string>): Promise<PushResult> {
  const docs = await Promise.all(
    batch.map(async (item) => {
      const n = (item.state?.n ?? 0) + 1;
      const doc = { v: 1, kind: item.kind, id: item.id, n, from: ctx.device.id, record: item.record } as SyncDocument;
      const sealed = await ctx.sealed.seal(doc);
      return { item, n, body: item.state?.rev ? { ...sealed, _rev: item.state.rev } : sealed };
    }),
  );
  const results = await ctx.client.bulkDocs(docs.map((d) => d.body));
  const written: SyncDocState[] = [];
  let conflicts = 0;
  for (const [i, { item, n, body }] of docs.entries()) {
    const result = results[i];
    if (result?.rev && !result.error) {
      const from = item.kind === 'conversation' ? watermarks.get(item.id) : undefined;
      written.push({ key: syncKey(item.kind, item.id), docId: body._id, rev: result.rev, n, hash: item.hash, ...(from === undefined ? {} : { from }) });
      continue;
    }
    if (item.kind !== 'conversation') failed.add(conversationOf(item));
    if (result?.error !== 'conflict') continue;
    // Another revision is there (this device's record of it was lost):
    // take its revision and counter, so the next push writes over it, counted past it.
    conflicts++;
    const current = await ctx.client.getDocument(body._id);
    if (!current) continue;
    const theirs = await ctx.sealed.counterOf(current);
    written.push({ key: syncKey(item.kind, item.id), docId: body._id, rev: current._rev, n: Math.max(n, theirs ?? 0) });
  }
  // A conversation is recorded as pushed only with all of its own documents: otherwise the next push reads it again.
  const pushed = written.filter((w) => !(w.key.startsWith('conversation:') && failed.has(w.key.slice('conversation:'.length))));
  await ctx.db.syncDocs.bulkPut(pushed);
  return { pushed: pushed.filter((w) => w.hash !== undefined).length, conflicts };
}

function conversationOf(item: Outgoing): string {
  const record = item.record as { conversationId?: unknown };
  return typeof record.conversationId === 'string' ? record.conversationId : '';
}
