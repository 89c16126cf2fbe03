import { LedgerEntry, ledgerId } from '../engine/records/ledger-entry.ts';
import type { PausePoint } from '../engine/records/pause-point.ts';
import type { PausepointDb } from '../storage/db.ts';
import { deviceId as storedDeviceId } from '../storage/settings-repo.ts';
import { APP_VERSION } from '../common/app-version.ts';
import { AUDIT_FORMAT, AUDIT_VERSION, type AuditMetadata } from './audit-entry.ts';
import { AuditFilters, filtersUsed } from './audit-filters.ts';
import { openSink, type AuditSink } from './audit-sink.ts';
import { buildAuditEntry } from './build-audit-entry.ts';
import { ConversationExplanations, type Explanation } from './conversation-explanations.ts';
import { chainEntry, entryText, GENESIS_HASH, type EntryText } from './hash-chain.ts';
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

interface JoinedPage {
  rows: PausePoint[];
  explanations: Map<string, Explanation>;
  ledger: Map<string, LedgerEntry>;
  unreadable: UnreadableRecord[];
  scanned: number;
}

/**
 * Streams the audit log to `sink` as the JSON text of a `pausepoint.audit-log`
 * version 1 file. Pause points are read in pages of `pageSize` (oldest first),
 * joined with their messages and ledger entries, hash-chained and written one
 * chunk per page; the next page is read while the current one is hashed. No
 * step holds more than two pages, and the event loop gets a turn between pages.
 *
 * Reads the settings table for the device id only: nothing else from settings
 * (the API key lives there) can reach the file.
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
    const scan = await scanPausePoints(db, checked, { order: 'oldest_first', pageSize });
    await write(`{"format":${JSON.stringify(AUDIT_FORMAT)},"version":${AUDIT_VERSION},"metadata":${JSON.stringify(metadata)},"entries":[`);

    let headHash = GENESIS_HASH;
    let entryCount = 0;
    let processed = 0;
    const skipped: UnreadableRecord[] = [];
    const pages = joinedPages(db, scan.pages);
    let next = pages.next();
    try {
      for (;;) {
        const step = await next;
        if (step.done) break;
        signal?.throwIfAborted();
        // Read the following page while this one is hashed: hashing waits on WebCrypto, reading on IndexedDB.
        next = pages.next();
        const page = step.value;
        skipped.push(...page.unreadable);
        const prepare = (pp: PausePoint): EntryText | undefined => {
          const built = buildAuditEntry(pp, page.explanations.get(pp.conversationId), page.ledger.get(ledgerId(pp.conversationId, pp.toolCallId)));
          if (!built.ok) {
            skipped.push({ id: pp.id, reason: built.reason });
            return undefined;
          }
          try {
            return entryText(built.body);
          } catch (error) {
            // canonicalJson refuses BigInts and cycles, which IndexedDB can store but JSON cannot hold.
            skipped.push({ id: pp.id, reason: `Its stored data has no JSON form: ${error instanceof Error ? error.message : String(error)}` });
            return undefined;
          }
        };
        const parts: string[] = [];
        const { rows } = page;
        let text = rows.length > 0 ? prepare(rows[0]!) : undefined;
        for (let index = 0; index < rows.length; index++) {
          // Start this entry's SHA-256, then serialise the next entry while WebCrypto works:
          // only the hashing has to follow the chain one entry at a time.
          const chaining = text ? chainEntry(text, headHash) : undefined;
          text = index + 1 < rows.length ? prepare(rows[index + 1]!) : undefined;
          if (!chaining) continue;
          const chained = await chaining;
          parts.push(entryCount === 0 ? '\n' : ',\n', chained.text);
          headHash = chained.hash;
          entryCount++;
        }
        if (parts.length > 0) await write(parts.join(''));
        processed += page.scanned;
        onProgress({ processed, total: Math.max(scan.total, processed), entries: entryCount });
        await yieldToEventLoop();
      }
    } finally {
      // On failure the read that was started ahead must not become an unhandled rejection.
      next.catch(() => undefined);
      await pages.return(undefined).catch(() => undefined);
    }

    signal?.throwIfAborted();
    await write(`${entryCount === 0 ? '' : '\n'}],"entry_count":${entryCount},"head_hash":"${headHash}","skipped_records":${JSON.stringify(skipped)}}\n`);
    await writer.close();
    return { entryCount, headHash, skipped, characters };
  } catch (error) {
    await writer.abort(error).catch(() => undefined);
    throw error;
  }
}

/** Each page of pause points with their conversations' explanations and their ledger entries. */
async function* joinedPages(
  db: PausepointDb,
  pages: AsyncGenerator<{ rows: PausePoint[]; unreadable: UnreadableRecord[]; scanned: number }, void, undefined>,
): AsyncGenerator<JoinedPage, void, undefined> {
  const explanations = new ConversationExplanations(db);
  try {
    for (;;) {
      explanations.beginGeneration();
      const step = await pages.next();
      if (step.done) return;
      const { rows, unreadable, scanned } = step.value;
      const ids = rows.map((pp) => ledgerId(pp.conversationId, pp.toolCallId));
      const [explained, stored] = await Promise.all([explanations.explain(rows), db.ledger.bulkGet(ids)]);
      const ledger = new Map<string, LedgerEntry>();
      stored.forEach((record, index) => {
        // A malformed ledger entry reads as none: the entry then says the call never ran.
        const parsed = LedgerEntry.safeParse(record);
        if (parsed.success) ledger.set(ids[index]!, parsed.data);
      });
      yield { rows, explanations: explained, ledger, unreadable, scanned };
    }
  } finally {
    await pages.return(undefined);
  }
}
