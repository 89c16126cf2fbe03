import { z } from 'zod';

/**
 * What Settings › Devices and the Join dialog ask of the worker's sync host
 * (src/worker/sync-host.ts). Everything they show otherwise comes from stored
 * records (src/storage/records/sync-records.ts): the status line, the devices, the claimed decisions.
 */
export const TurnOnSync = z.object({
  deviceName: z.string().trim().min(1).max(200),
  serverUrl: z.url({ protocol: /^https?$/ }),
  database: z.string().trim().min(1).max(238),
  username: z.string().max(200),
  password: z.string().max(1000),
  passphrase: z.string().min(1).max(1000),
  /** The database does not exist yet and the person chose to create it. */
  createDatabase: z.boolean().optional(),
});
export type TurnOnSync = z.infer<typeof TurnOnSync>;

export const JoinWithPairing = z.object({
  /** The `#pair=` fragment's blob, as the link carried it. */
  blob: z.string().min(1).max(8000),
  code: z.string().min(1).max(100),
  deviceName: z.string().trim().min(1).max(200),
});
export type JoinWithPairing = z.infer<typeof JoinWithPairing>;

/** What `Add a device` shows: the link (also drawn as a QR code) and the code typed on the other device. */
export const PairingInvite = z.object({ link: z.string(), code: z.string(), expiresAt: z.number() });
export type PairingInvite = z.infer<typeof PairingInvite>;

/**
 * Why turning sync on or joining did not happen; nothing was written. The
 * status line's kinds, plus what only a first attempt can meet.
 */
export const SyncRefusal = z.object({
  kind: z.enum([
    'unreachable',
    'unauthorized',
    'forbidden',
    'no_database',
    'cors',
    'wrong_passphrase',
    /** A new database's passphrase an offline attacker guesses in under a year (passphrase/passphrase-strength.ts). */
    'weak_passphrase',
    'wrong_code',
    'link_expired',
    'link_used',
    'bad_link',
    'error',
  ]),
  message: z.string(),
});
export type SyncRefusal = z.infer<typeof SyncRefusal>;

/** What turning sync on or joining came to; the page reads it with this schema (src/worker/worker-client.ts). */
export const SyncResult = z.discriminatedUnion('ok', [z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), refusal: SyncRefusal })]);
export type SyncResult = z.infer<typeof SyncResult>;
