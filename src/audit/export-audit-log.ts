import { ledgerId } from '../engine/records/ledger-entry.ts';
import type { PausePoint } from '../engine/records/pause-point.ts';
import type { PausepointDb } from '../storage/db.ts';
import { deviceId as storedDeviceId } from '../storage/settings-repo.ts';
import { APP_VERSION } from '../common/app-version.ts';
import { AUDIT_FORMAT, AUDIT_VERSION, type AuditMetadata } from './audit-entry.ts';
import { AuditFilters, filtersUsed } from './audit-filters.ts';
import { openSink, type AuditSink } from './audit-sink.ts';
import type { AuditEvent } from '../engine/records/audit-event.ts';
import { AuditEventCursor, keyBefore } from './audit-event-cursor.ts';
import { buildAuditEntry } from './build-audit-entry.ts';
import { buildEventEntry } from './build-event-entry.ts';
import { ConversationExplanations, type Explanation } from './conversation-explanations.ts';
import { chainEntry, chainSeal, chainStart, entryText, type EntryText } from './hash-chain.ts';
import { scanPausePoints, type UnreadableRecord } from './pause-point-query.ts';
import { yieldToEventLoop } from '../common/yield-to-event-loop.ts';

export interface ExportProgress {
  /** Stored pause points read so far. */
  processed: number;
  /** How many the export expects to read (the scan's estimate). */
  total: number;
  /** Entries written so far. */
  entries: number;
}

export interface ExportOptions {
  /** Overrides the stored device id (tests); by default it is read from settings. */
  deviceId?: string | null;
  now?: () => number;
  /** Pause points read per page; each page is one chunk written to the sink. */
  pageSize?: number;
  signal?: AbortSignal;
}

export interface ExportResult {
  entryCount: number;
  headHash: string;
  skipped: UnreadableRecord[];
  /** Characters written (UTF-16 code units: bytes for ASCII text). */
  characters: number;
}

/** What one chain link is made from: a pause point, or an audit event between them. */
type Item = { pp: PausePoint } | { event: AuditEvent };

/** A page's pause points and the events that fall among them, in chain order (time, then id; a pause point first on a tie of both). */
function merge(rows: readonly PausePoint[], events: readonly AuditEvent[]): Item[] {
  const items: Item[] = [];
  let e = 0;
  for (const pp of rows) {
    while (e < events.length && keyBefore([events[e]!.at, events[e]!.id], [pp.createdAt, pp.id])) items.push({ event: events[e++]! });
    items.push({ pp });
  }
  while (e < events.length) items.push({ event: events[e++]! });
  return items;
}

/** An event's canonical text, or undefined (and a skipped record) when it has none. */
function eventText(event: AuditEvent, skipped: UnreadableRecord[]): EntryText | undefined {
  const built = buildEventEntry(event);
  if (!built.ok) {
    skipped.push({ id: event.id, reason: built.reason });
    return undefined;
  }
  return textOf(event.id, built.body, skipped);
}

function textOf(id: string, body: object, skipped: UnreadableRecord[]): EntryText | undefined {
  try {
    return entryText(body);
  } catch (error) {
    // canonicalJson refuses BigInts and cycles, which IndexedDB can store but JSON cannot hold.
    skipped.push({ id, reason: `Its stored data has no JSON form: ${error instanceof Error ? error.message : String(error)}` });
    return undefined;
  }
}

interface JoinedPage {
  rows: PausePoint[];
  explanations: Map<string, Explanation>;
  unreadable: UnreadableRecord[];
  scanned: number;
  /** The audit events after the previous page's, up to this page's last pause point. */
  events: AuditEvent[];
  eventsUnreadable: UnreadableRecord[];
}

/**
 * Streams the audit log to `sink` as the JSON text of a `pausepoint.audit-log`
 * version 4 file. Pause points are read in pages of `pageSize` (oldest first),
 * joined with their messages and ledger entries, merged in time order with the
 * audit events (rule changes, changed MCP tools) that fall among them,
 * hash-chained and written one chunk per page; the next page is read while
 * the current one is hashed. No
 * step holds more than two pages, and the event loop gets a turn between pages.
 *
 * Reads the settings table for the device id, this device's public signing
 * key and its sync name only: nothing else from settings (the API key lives
 * there) can reach the file.
 */
export async function exportAuditLog(
  db: PausepointDb,
  filters: AuditFilters,
  sink: AuditSink,
  onProgress: (progress: ExportProgress) => void = () => undefined,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const checked = AuditFilters.parse(filters);
  const { pageSize = 250, signal, now = Date.now } = options;
  const writer = openSink(sink);
  let characters = 0;
  const write = async (chunk: string) => {
    characters += chunk.length;
    await writer.write(chunk);
  };

  try {
    signal?.throwIfAborted();
    const metadata: AuditMetadata = {
      app_version: APP_VERSION,
      exported_at: new Date(now()).toISOString(),
      device_id: options.deviceId !== undefined ? options.deviceId : await storedDeviceId(db),
      filters: filtersUsed(checked),
    };
    // The devices' keys (src/identity) load with the export, not with the audit view that offers it.
    const [scan, head] = await Promise.all([
      scanPausePoints(db, checked, { order: 'oldest_first', pageSize }),
      import('./audit-devices.ts').then(({ auditHead }) => auditHead(db)),
    ]);
    const { devices, membership } = head;
    const log = membership ? `"membership":${JSON.stringify(membership)},` : '';
    await write(`{"format":${JSON.stringify(AUDIT_FORMAT)},"version":${AUDIT_VERSION},"metadata":${JSON.stringify(metadata)},"devices":${JSON.stringify(devices)},${log}"entries":[`);

    // The metadata, the devices and their log are the chain's first link: editing them breaks entry 1, or the seal of an empty file.
    let headHash = chainStart({ format: AUDIT_FORMAT, version: AUDIT_VERSION, metadata, devices, ...(membership ? { membership } : {}) });
    let entryCount = 0;
    let processed = 0;
    const skipped: UnreadableRecord[] = [];
    const events = new AuditEventCursor(db, checked, pageSize);
    /**
     * Chains these entries in order and writes them as one chunk. Synchronous up
     * to the write: a page's strings die young instead of outliving awaits.
     */
    const chainItems = async (items: Item[], prepare: (item: Item) => EntryText | undefined) => {
      const parts: string[] = [];
      for (const item of items) {
        const text = prepare(item);
        if (!text) continue;
        const chained = chainEntry(text, headHash);
        parts.push(entryCount === 0 ? '\n' : ',\n', chained.text);
        headHash = chained.hash;
        entryCount++;
      }
      if (parts.length > 0) await write(parts.join(''));
    };
    const pages = joinedPages(db, scan.pages, events);
    let next = pages.next();
    try {
      for (;;) {
        const step = await next;
        if (step.done) break;
        signal?.throwIfAborted();
        // Read the following page while this one is chained and written: IndexedDB works while this thread hashes.
        next = pages.next();
        const page = step.value;
        skipped.push(...page.unreadable);
        const prepare = (item: Item): EntryText | undefined => {
          if ('event' in item) return eventText(item.event, skipped);
          const { pp } = item;
          const explanation = page.explanations.get(pp.conversationId);
          const built = buildAuditEntry(pp, explanation, explanation?.ledger.get(ledgerId(pp.conversationId, pp.toolCallId)));
          if (!built.ok) {
            skipped.push({ id: pp.id, reason: built.reason });
            return undefined;
          }
          return textOf(pp.id, built.body, skipped);
        };
        skipped.push(...page.eventsUnreadable);
        await chainItems(merge(page.rows, page.events), prepare);
        processed += page.scanned;
        onProgress({ processed, total: Math.max(scan.total, processed), entries: entryCount });
        await yieldToEventLoop();
      }
    } finally {
      // On failure the read that was started ahead must not become an unhandled rejection.
      next.catch(() => undefined);
      await pages.return(undefined).catch(() => undefined);
    }

    // The events after the last pause point.
    const rest = await events.takeUpTo();
    skipped.push(...rest.unreadable);
    await chainItems(merge([], rest.events), (item) => ('event' in item ? eventText(item.event, skipped) : undefined));

    signal?.throwIfAborted();
    const sealed = chainSeal(headHash, entryCount, skipped);
    await write(`${entryCount === 0 ? '' : '\n'}],"entry_count":${entryCount},"head_hash":"${sealed}","skipped_records":${JSON.stringify(skipped)}}\n`);
    await writer.close();
    return { entryCount, headHash: sealed, skipped, characters };
  } catch (error) {
    await writer.abort(error).catch(() => undefined);
    throw error;
  }
}

/**
 * Each page of pause points with their conversations' explanations, which
 * carry their ledger entries, and the audit events that fall among them. The
 * explanations and the events are read side by side, once the page's rows are
 * known: each is a round trip to IndexedDB that would otherwise wait for the other.
 */
async function* joinedPages(
  db: PausepointDb,
  pages: AsyncGenerator<{ rows: PausePoint[]; unreadable: UnreadableRecord[]; scanned: number }, void, undefined>,
  events: AuditEventCursor,
): AsyncGenerator<JoinedPage, void, undefined> {
  const explanations = new ConversationExplanations(db, { withLedger: true });
  try {
    for (;;) {
      explanations.beginGeneration();
      const step = await pages.next();
      if (step.done) return;
      const { rows, unreadable, scanned } = step.value;
      const last = rows.at(-1);
      const [explained, taken] = await Promise.all([
        explanations.explain(rows),
        last ? events.takeUpTo([last.createdAt, last.id]) : { events: [], unreadable: [] },
      ]);
      yield { rows, explanations: explained, unreadable, scanned, events: taken.events, eventsUnreadable: taken.unreadable };
    }
  } finally {
    await pages.return(undefined);
  }
}
