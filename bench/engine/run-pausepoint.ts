// First, before anything loads Dexie: fake-indexeddb puts indexedDB where Dexie looks for it in Node.
import 'fake-indexeddb/auto';
import { MemoryStorage } from '../../src/engine/testing/memory-storage.ts';
import { PausepointDb } from '../../src/storage/db.ts';
import { DexieStorage } from '../../src/storage/dexie-storage.ts';
import type { RunnerFactory } from './conversation-runner.ts';
import { pausepointOver } from './pausepoint-runner.ts';

export { pausepointOver };

/** A fresh Dexie database on fake-indexeddb, deleted when the runner finishes. */
export async function benchDexie(label: string): Promise<{ storage: DexieStorage; close: () => Promise<void> }> {
  const db = new PausepointDb(`bench-${label}-${Date.now()}`);
  await db.open();
  return { storage: new DexieStorage(db), close: () => db.delete() };
}

/** Our engine over Dexie on fake-indexeddb: every step persisted through IndexedDB transactions. */
export const pausepointDexie: RunnerFactory = async (label) => {
  const { storage, close } = await benchDexie(label);
  return pausepointOver('Pausepoint + Dexie', storage, close);
};

/** Our engine over the in-memory store (deep copies in and out, as IndexedDB would). */
export const pausepointMemory: RunnerFactory = async () => pausepointOver('Pausepoint + memory', new MemoryStorage());
