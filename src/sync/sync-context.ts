import type { PausepointDb } from '../storage/db.ts';
import type { CouchClient } from './couch/couch-client.ts';
import type { FollowedMembership } from './membership/live-membership.ts';
import type { SealedDocuments } from './sealed-documents.ts';

/** What the replicator's parts share: this device, its database, the server, and the data key's documents. */
export interface SyncContext {
  db: PausepointDb;
  client: CouchClient;
  sealed: SealedDocuments;
  device: { id: string; name: string };
  /** When sync was turned on on this device (`SyncConfig.since`). */
  since: number;
  /** The data key's rotations so far (the vault's `epoch`). */
  epoch: number;
  /** The membership log as this session follows it: whose signatures count. */
  membership: FollowedMembership;
  now(): number;
}
