import type { PausePoint } from '../engine/records/index.ts';
import type { SyncStatusKind } from '../storage/records/sync-records.ts';
import { CouchError } from './couch/couch-error.ts';
import { flushClaims } from './decision-claims.ts';
import { backoff, PAGE, readPage } from './follow-changes.ts';
import { HEARTBEAT_MS, pushChanges } from './push-changes.ts';
import type { SyncContext } from './sync-context.ts';
import type { DecisionClaim } from './sync-document.ts';
import { readCheckpoint, writeCheckpoint, writeSyncStatus } from './sync-store.ts';

export interface ReplicatorHooks {
  /** A decision another device won for a card of a conversation this device runs: apply it (the engine's compare-and-set). */
  applyClaim(claim: DecisionClaim): Promise<void>;
  /** Cards of other devices' conversations that arrived pending. */
  newCards(cards: readonly PausePoint[]): void;
  /** Another device pressed Stop on a conversation this device runs. */
  stop(conversationId: string): Promise<void>;
}

const STATUS_OF: Record<CouchError['kind'], SyncStatusKind> = {
  unreachable: 'unreachable',
  timeout: 'unreachable',
  cors: 'cors',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  no_database: 'no_database',
  conflict: 'error',
  server: 'error',
  bad_response: 'error',
  aborted: 'error',
};

/** Documents of a device still on a version before documents were signed: they are skipped until it is updated and paired again. */
export const UNSIGNED_MESSAGE =
  'Some synced documents are not signed (written by an older version of Pausepoint) and were skipped: update the other devices, then pair them again (Settings › Devices › Add a device).';

/**
 * Sync's two loops, run by one worker of this browser at a time (the one
 * holding the sync lock): following the server's changes, and pushing this
 * device's. Each failure is written to the status line and retried with
 * backoff; nothing is lost meanwhile, since both loops start again from
 * stored records (the checkpoint, and what was last pushed).
 */
export class Replicator {
  #poked: (() => void) | null = null;
  #pokedEarly = true;
  #wake: (() => void) | null = null;

  constructor(
    private readonly ctx: SyncContext,
    private readonly hooks: ReplicatorHooks,
    /** What ends this replicator's run: this device removed, or the data key rotated (the caller starts again under the new key). */
    private readonly ends: { removed(): Promise<void>; rotated(epoch: number, raw: Uint8Array<ArrayBuffer>): Promise<void> },
  ) {}

  /** Something changed here: push it soon. */
  poke(): void {
    this.#pokedEarly = true;
    this.#poked?.();
  }

  /** `Try again`: cuts a backoff short. */
  retryNow(): void {
    this.#wake?.();
    this.poke();
  }

  /** Runs both loops until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    // The device's own document is its heartbeat: pushed when due even if nothing else changed.
    const heartbeat = setInterval(() => this.poke(), HEARTBEAT_MS);
    try {
      await Promise.all([this.#follow(signal), this.#push(signal)]);
    } finally {
      clearInterval(heartbeat);
    }
  }

  async #follow(signal: AbortSignal): Promise<void> {
    const { db } = this.ctx;
    let since = (await readCheckpoint(db)) ?? '0';
    let attempt = 0;
    let catchingUp = true;
    let done = 0;
    let total = 0;
    while (!signal.aborted) {
      try {
        // The document count is for the progress only: asked beside the first page, not before it, so a device opened
        // on a push's link (or any start) waits one round trip to the server less for what changed while it was closed.
        // So is the status 'syncing': written while the first page is on its way, not before it is asked for.
        let counting: Promise<number> | undefined;
        let syncing: Promise<void> | undefined;
        if (catchingUp && done === 0) {
          syncing = writeSyncStatus(db, 'syncing');
          counting = this.ctx.client.databaseInfo(signal).then(
            (info) => info.docCount,
            () => 0,
          );
        }
        const [page] = await Promise.all([readPage(this.ctx, since, catchingUp ? 'normal' : 'longpoll', signal, (claim) => this.hooks.applyClaim(claim)), syncing]);
        if (counting) total = await counting;
        for (const claim of page.applied.claims) await this.hooks.applyClaim(claim);
        for (const conversationId of page.applied.stops) await this.hooks.stop(conversationId);
        if (page.applied.newCards.length > 0) this.hooks.newCards(page.applied.newCards);
        since = page.lastSeq;
        await writeCheckpoint(db, since);
        if (page.membership?.removedHere) return await this.ends.removed();
        // The page is applied and the checkpoint is past it: the new key starts from there.
        if (page.membership?.rotated) return await this.ends.rotated(page.membership.rotated.epoch, page.membership.rotated.raw);
        attempt = 0;
        done += page.count;
        const skipped = page.unreadable + page.applied.refused;
        const more = page.count >= PAGE || (page.pending ?? 0) > 0;
        if (catchingUp && more) {
          await writeSyncStatus(db, 'syncing', { progress: { done, total: Math.max(total, done) }, skipped });
          continue;
        }
        const message = page.unsigned > 0 ? UNSIGNED_MESSAGE : undefined;
        if (catchingUp || skipped > 0 || page.count > 0) await writeSyncStatus(db, 'up_to_date', { skipped, ...(message ? { message } : {}) });
        catchingUp = false;
      } catch (error) {
        if (signal.aborted) return;
        attempt++;
        catchingUp = true;
        done = 0;
        await this.#failed(error);
        await this.#backoff(attempt, signal);
      }
    }
  }

  async #push(signal: AbortSignal): Promise<void> {
    let attempt = 0;
    while (!signal.aborted) {
      if (!this.#pokedEarly) await untilPokedOr(signal, (wake) => (this.#poked = wake));
      this.#poked = null;
      this.#pokedEarly = false;
      if (signal.aborted) return;
      try {
        const claims = await flushClaims(this.ctx);
        if (claims.error) throw claims.error;
        const { conflicts } = await pushChanges(this.ctx);
        // A conflict took the server's revision: the record goes again at once, over it.
        if (conflicts > 0) this.#pokedEarly = true;
        if (attempt > 0) await writeSyncStatus(this.ctx.db, 'up_to_date');
        attempt = 0;
      } catch (error) {
        if (signal.aborted) return;
        attempt++;
        this.#pokedEarly = true;
        await this.#failed(error);
        await this.#backoff(attempt, signal);
      }
    }
  }

  async #failed(error: unknown): Promise<void> {
    if (!(error instanceof CouchError)) console.error('Pausepoint: sync failed', error);
    const kind = error instanceof CouchError ? STATUS_OF[error.kind] : 'error';
    const message = error instanceof Error ? error.message : String(error);
    await writeSyncStatus(this.ctx.db, kind, { message }).catch((failure: unknown) => console.error('Pausepoint: the sync status could not be stored', failure));
  }

  async #backoff(attempt: number, signal: AbortSignal): Promise<void> {
    await untilPokedOr(signal, (wake) => (this.#wake = wake), backoff(attempt, signal));
    this.#wake = null;
  }
}

/**
 * Resolves when `wake` (handed to `hold`) is called, `signal` aborts, or
 * `until` settles; the abort listener goes with it, so a long-lived signal
 * does not gather one per wait.
 */
function untilPokedOr(signal: AbortSignal, hold: (wake: () => void) => void, until?: Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    hold(done);
    signal.addEventListener('abort', done, { once: true });
    void until?.then(done);
  });
}
