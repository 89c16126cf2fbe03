import type { PausepointDb } from '../storage/db.ts';
import type { JoinWithPairing, PairingInvite, SyncResult, TurnOnSync } from './sync-control.ts';

/** Everything the worker's sync host asks of sync (src/worker/sync-host.ts). */
export interface SyncService {
  turnOn(input: TurnOnSync): Promise<SyncResult>;
  turnOff(): Promise<void>;
  addDevice(): Promise<PairingInvite>;
  join(input: JoinWithPairing): Promise<SyncResult>;
  removeDevice(deviceId: string): Promise<void>;
  renameDevice(name: string): Promise<void>;
  retryNow(): Promise<void>;
}

// Work in progress (this session): the replicator lands behind this.
export function createSyncService(db: PausepointDb): SyncService {
  void db;
  const notYet = (): never => {
    throw new Error('Sync is not available in this build yet.');
  };
  return { turnOn: notYet, turnOff: notYet, addDevice: notYet, join: notYet, removeDevice: notYet, renameDevice: notYet, retryNow: notYet };
}
