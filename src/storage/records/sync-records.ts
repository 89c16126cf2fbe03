import { z } from 'zod';
import { Decision } from '../../engine/decision.ts';
import { DecidedBy, DeviceSignature } from '../../engine/records/index.ts';
import { PublicKeyJwk } from './public-key-jwk.ts';

/**
 * What this device stores about sync, beside the records it syncs. None of it
 * is in backups or exports: the server's password and the data key never leave
 * the device except inside a pairing link, encrypted under its pairing code.
 */

/** The settings row `sync`: where to sync, as whom, and whether it is on. */
export const SyncConfig = z.object({
  v: z.literal(1),
  on: z.boolean(),
  serverUrl: z.url({ protocol: /^https?$/ }),
  database: z.string().min(1).max(238),
  username: z.string().max(200),
  password: z.string().max(1000),
  /** `This device's name`, as the other devices show it. */
  deviceName: z.string().min(1).max(200),
  /** When sync was turned on here (this device's clock): decisions made here before it are not claimed. */
  since: z.number(),
});
export type SyncConfig = z.infer<typeof SyncConfig>;

/**
 * The settings row `syncStatus`, written by the worker, read by the page: one
 * line that says what is true. `at` is this device's clock, for display only.
 */
export const SyncStatusKind = z.enum([
  'off',
  'connecting',
  'syncing',
  'up_to_date',
  'unreachable',
  'unauthorized',
  'forbidden',
  'wrong_passphrase',
  'no_database',
  'cors',
  'error',
]);
export type SyncStatusKind = z.infer<typeof SyncStatusKind>;
export const SyncStatus = z.object({
  v: z.literal(1),
  kind: SyncStatusKind,
  at: z.number(),
  message: z.string().optional(),
  /** A first sync of a long history: documents read so far of about how many. */
  progress: z.object({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).optional(),
  /** Documents that failed to decrypt or to validate: skipped, never applied. */
  skipped: z.number().int().nonnegative(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

/** A paired device as the others see it (table `syncDevices`). `lastSeenAt` is that device's own clock. */
export const SyncDevice = z.object({
  v: z.literal(1),
  id: z.string(),
  name: z.string().max(200),
  lastSeenAt: z.number(),
  removed: z.boolean().optional(),
  /** Its ECDH public key, which a rotation of the data key grants the new key to (src/sync/crypto/key-grant.ts). */
  publicKey: PublicKeyJwk.optional(),
});
export type SyncDevice = z.infer<typeof SyncDevice>;

/**
 * A decision as this device claimed it on the server (table `remoteDecisions`,
 * key `pausePointId`): `queued` until the server answers, `won` when its create
 * got 201, `lost` on a 409 (the winner's decision and device are then kept).
 * The card reads it to say `Waiting for the sync server` or `Decided on … first`.
 */
export const RemoteDecision = z.object({
  v: z.literal(1),
  pausePointId: z.string(),
  conversationId: z.string(),
  state: z.enum(['queued', 'won', 'lost']),
  decision: Decision,
  decidedBy: DecidedBy,
  /** When this device decided, by its own clock (display and ordering of the queue only). */
  at: z.number(),
  winner: z.object({ decision: Decision, decidedBy: DecidedBy, deviceSignature: DeviceSignature.optional() }).optional(),
  /** This device's signature of the decision, sent with the claim (`DecisionClaim.deviceSignature`). */
  deviceSignature: DeviceSignature.optional(),
});
export type RemoteDecision = z.infer<typeof RemoteDecision>;

/**
 * Per synced record (table `syncDocs`, key `<kind>:<local id>`): its
 * document's id on the server, the `_rev` last written or read, `n` the
 * record's version counter (its writer adds one per change; a document whose
 * counter is not above the one seen is an old revision replayed, and is not
 * applied), and `hash` what this device last pushed (unchanged records are not
 * pushed again).
 */
export const SyncDocState = z.object({
  key: z.string(),
  docId: z.string(),
  rev: z.string().optional(),
  n: z.number().int().nonnegative(),
  hash: z.string().optional(),
  /**
   * On a conversation's row: the messages below this `seq` are pushed and
   * final (messages are append-only, and only a streaming one changes), so
   * the next push reads the conversation's messages from here.
   */
  from: z.number().int().nonnegative().optional(),
});
export type SyncDocState = z.infer<typeof SyncDocState>;
