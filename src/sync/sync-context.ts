import type { PausepointDb } from '../storage/db.ts';
import type { CouchClient } from './couch/couch-client.ts';
import type { PublicKeyJwk } from './crypto/key-grant.ts';
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
  /** This device's ECDH public key, published in its device document for rotations' grants. */
  publicKey?: PublicKeyJwk;
  now(): number;
}
