import { liveQuery } from 'dexie';
import type { OwnerDevice } from '../engine/records/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import type { PushService } from '../push/push-service.ts';

/** The push settings' row (src/push/push-config.ts), named here so that this file loads nothing of src/push. */
const PUSH_CONFIG_KEY = 'push';

/**
 * The worker's push side. src/push comes in with a dynamic import only once
 * push notifications are set up (the `push` row exists), so a browser that
 * never sets them up never loads it. Of this device's workers, one at a time
 * pushes: the holder of the `pausepoint:push` Web Lock; when its tab closes,
 * the browser releases the lock and the next worker in line takes over.
 */
export class PushHost {
  #running: { service: Promise<PushService>; release: () => void } | undefined;

  constructor(
    private readonly db: PausepointDb,
    private readonly runsHere: (owner: OwnerDevice | undefined) => boolean,
  ) {
    liveQuery(() => db.settings.get(PUSH_CONFIG_KEY)).subscribe({
      next: (row) => (row ? this.#start() : this.#stop()),
      error: (error: unknown) => console.error('Pausepoint: watching the push settings failed', error),
    });
  }

  #start(): void {
    if (this.#running) return;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const service = new Promise<PushService>((resolve, reject) => {
      navigator.locks
        .request('pausepoint:push', async () => {
          const { PushService } = await import('../push/push-service.ts');
          const started = new PushService(this.db, {
            fetch: (input, init) => fetch(input, init),
            // The app's own address: the push's link opens it at the card.
            appUrl: new URL(import.meta.env.BASE_URL, self.location.origin).href,
            runsHere: this.runsHere,
            ids: () => crypto.randomUUID(),
          });
          started.start();
          resolve(started);
          await held;
          started.stop();
        })
        .catch(reject);
    });
    service.catch((error: unknown) => console.error('Pausepoint: starting push notifications failed', error));
    this.#running = { service, release };
  }

  #stop(): void {
    this.#running?.release();
    this.#running = undefined;
  }
}
