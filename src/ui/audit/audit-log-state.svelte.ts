import type { AuditFilters } from '../../audit/audit-filters.ts';
import { scanPausePoints, type PausePointPage } from '../../audit/pause-point-query.ts';
import { yieldToEventLoop } from '../../common/yield-to-event-loop.ts';
import type { PausePoint } from '../../engine/records/pause-point.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { joinAuditRows, type AuditRow } from './join-audit-rows.ts';

export type { AuditRow };

/** Rows shown per "Load more": the list never renders more than it was asked for. */
export const ROWS_PER_LOAD = 100;

/**
 * The audit view's list: newest first, filtered, loaded 100 rows at a time.
 *
 * Rows come from `scanPausePoints` (index-backed, keyset-paged), so the first
 * rows of 100,000 cost what the first rows of 100 cost; each batch is joined
 * with its ledger entries and conversation titles by bulk gets. Changing the
 * filters starts a new scan; a load still running for old filters is dropped.
 */
export class AuditLogState {
  #rows: AuditRow[] = $state.raw([]);
  #loading = $state(false);
  #exhausted = $state(false);
  #error: string | null = $state(null);
  #scanned = $state(0);
  #total = $state(0);
  #unreadable = $state(0);

  readonly #db: PausepointDb;
  #filters: AuditFilters = {};
  /** What the view narrows the scan's rows to besides the filters (who decided). */
  #where: (pausePoint: PausePoint) => boolean = () => true;
  #pages: AsyncGenerator<PausePointPage, void, undefined> | null = null;
  /** Rows read from the scan but not shown yet. */
  #buffer: PausePoint[] = [];
  #scanDone = false;
  #run = 0;
  /** The load in progress, shared by callers that ask while it runs. */
  #pending: Promise<void> = Promise.resolve();

  constructor(db: PausepointDb) {
    this.#db = db;
  }

  get rows(): readonly AuditRow[] {
    return this.#rows;
  }
  get loading(): boolean {
    return this.#loading;
  }
  /** True when every matching pause point is shown. */
  get exhausted(): boolean {
    return this.#exhausted;
  }
  get error(): string | null {
    return this.#error;
  }
  /** Stored pause points read so far, and how many the current scan covers. */
  get scanned(): number {
    return this.#scanned;
  }
  get total(): number {
    return this.#total;
  }
  get unreadable(): number {
    return this.#unreadable;
  }
  get filters(): AuditFilters {
    return this.#filters;
  }

  /** Shows the first rows for these filters (and `where`, which no index answers). */
  async show(filters: AuditFilters, where: (pausePoint: PausePoint) => boolean = () => true): Promise<void> {
    const run = ++this.#run;
    void this.#pages?.return(undefined);
    this.#filters = filters;
    this.#where = where;
    this.#pages = null;
    this.#buffer = [];
    this.#scanDone = false;
    this.#rows = [];
    this.#exhausted = false;
    this.#error = null;
    this.#scanned = 0;
    this.#total = 0;
    this.#unreadable = 0;
    // A load still running for the old filters ends without touching this state.
    this.#loading = false;
    try {
      const scan = await scanPausePoints(this.#db, filters, { order: 'newest_first', pageSize: ROWS_PER_LOAD });
      if (run !== this.#run) return;
      this.#pages = scan.pages;
      this.#total = scan.total;
    } catch (error) {
      if (run === this.#run) this.#error = messageOf(error);
      return;
    }
    await this.loadMore();
  }

  /** Appends up to 100 more rows. */
  loadMore(): Promise<void> {
    // `#loading` is set and cleared in the same ticks as the rows, so a click that
    // sees the new rows can always start the next load.
    if (!this.#loading) this.#pending = this.#loadMore(this.#run);
    return this.#pending;
  }

  async #loadMore(run: number): Promise<void> {
    const pages = this.#pages;
    if (!pages || this.#exhausted) return;
    this.#loading = true;
    try {
      while (!this.#scanDone && this.#buffer.length < ROWS_PER_LOAD) {
        const step = await pages.next();
        if (run !== this.#run) return;
        if (step.done) {
          this.#scanDone = true;
          break;
        }
        this.#buffer.push(...step.value.rows.filter(this.#where));
        this.#scanned += step.value.scanned;
        this.#unreadable += step.value.unreadable.length;
        // A rare filter can mean many pages with few matches: let the page breathe between them.
        await yieldToEventLoop();
      }
      const batch = this.#buffer.splice(0, ROWS_PER_LOAD);
      const joined = await joinAuditRows(this.#db, batch);
      if (run !== this.#run) return;
      this.#rows = [...this.#rows, ...joined];
      this.#exhausted = this.#scanDone && this.#buffer.length === 0;
    } catch (error) {
      if (run === this.#run) this.#error = messageOf(error);
    } finally {
      if (run === this.#run) this.#loading = false;
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
