import { Engine } from '../../engine/engine.ts';
import { devicesPort } from '../../engine/devices-port.ts';
import type { DecidedBy } from '../../engine/records/index.ts';
import { transferTool } from '../../engine/testing/harness.ts';
import { FakeNetwork } from '../../engine/testing/fake-clock.ts';
import { MemoryLocks } from '../../engine/testing/memory-locks.ts';
import { ScriptedModel, type ScriptedTurn } from '../../engine/testing/scripted-model.ts';
import { signObject } from '../../identity/device-signature.ts';
import { deviceIdentity } from '../../identity/identity-store.ts';
import { DexieRules } from '../../storage/approval-rules-repo.ts';
import { DexieStorage } from '../../storage/dexie-storage.ts';
import { openTestDb } from '../../storage/testing/open-test-db.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { createSyncService, type SyncService } from '../sync-service.ts';

/** One of the person's devices, for tests: its own database, engine and sync service, in this process. */
export interface SyncedDevice {
  id: string;
  name: string;
  db: PausepointDb;
  engine: Engine;
  sync: SyncService;
  model: ScriptedModel;
  executions: { amount: number; to: string }[];
  /** While true, every request to the sync server fails as a closed network would. */
  offline: { on: boolean };
  /**
   * While true, the server's changes feed never reaches this device (its
   * follow loop fails, a longpoll already open too), yet what it sends goes
   * through: a device that has not yet seen what others wrote.
   */
  deaf: { on: boolean };
  by(tabId?: string): DecidedBy;
  close(): Promise<void>;
}

const realTime = {
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
    }),
};

export async function syncedDevice(name: string, turns: ScriptedTurn[] = []): Promise<SyncedDevice> {
  const { db, cleanup } = await openTestDb();
  const id = `device-${name.replace(/\W+/g, '-').toLowerCase()}`;
  // This browser's id (settings-repo.ts), the one its sync goes under: the writer of its rule events.
  await db.settings.put({ key: 'deviceId', value: id });
  const model = new ScriptedModel(...turns);
  const executions: { amount: number; to: string }[] = [];
  const offline = { on: false };
  const deaf = { on: false };
  const fetchUnlessOffline: typeof fetch = async (input, init) => {
    if (offline.on) throw new TypeError('fetch failed');
    const response = await fetch(input, init);
    if (deaf.on && String(input instanceof Request ? input.url : input).includes('/_changes')) throw new TypeError('fetch failed');
    return response;
  };
  const stop = new AbortController();
  const engine: Engine = new Engine({
    storage: new DexieStorage(db),
    rules: new DexieRules(db),
    model: () => model,
    tools: [transferTool(executions)],
    clock: realTime,
    ids: { uuid: () => crypto.randomUUID() },
    network: new FakeNetwork(),
    locks: new MemoryLocks(),
    owner: `${id}-tab`,
    devices: devicesPort(() => id, () => sync),
    // As the worker signs: with this device's own key, made at its first start.
    signer: { sign: async (signed) => signObject(await deviceIdentity(db), signed) },
  });
  const sync = createSyncService(db, {
    deviceId: id,
    origin: 'http://localhost:4173',
    fetch: fetchUnlessOffline,
    hooks: {
      applyClaim: async (claim) => void (await engine.applyClaimed(claim.pausePointId, claim.decision, { ...claim.decidedBy, via: 'sync' }, claim.deviceSignature)),
      newCards: () => {},
      stop: (conversationId) => engine.stopEverywhere(conversationId),
    },
    lead: (work, signal) => work(AbortSignal.any([signal, stop.signal])),
  });
  return {
    id,
    name,
    db,
    engine,
    sync,
    model,
    executions,
    offline,
    deaf,
    by: (tabId = `${id}-tab`) => ({ tabId, deviceId: id, label: name }),
    async close() {
      stop.abort();
      sync.stop();
      await engine.whenIdle();
      await cleanup();
    },
  };
}

/** Polls until `check` holds (sync is asynchronous by nature), failing with `what` after `ms`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
