import { z } from 'zod';
import { DecidedBy, PausePoint } from './records/index.ts';

/**
 * Set by the engine's `decideBatch` on each card's decision of one `Approve
 * all` / `Decline all`: stored on the card (`PausePoint.batchId`), so the audit
 * log says which decisions were one press.
 */
const batchId = z.string().min(1).max(200).optional();

/**
 * The `view_hash` of the decision view the person was shown (decision-view.ts,
 * view-hash.ts): the compare-and-set refuses the decision when the card's view
 * as it would run now hashes otherwise (`DecideResult` `changed`). Every
 * surface that offers a decision sends it.
 */
export const ViewHash = z.string().regex(/^[0-9a-f]{64}$/);
const viewHash = ViewHash.optional();

/** What the user can do with a card. Validated at the worker boundary and again by the engine. */
export const Decision = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('approve'),
    /** The payload as edited on the card; absent when approved as proposed. */
    editedPayload: z.unknown().optional(),
    reply: z.string().max(4000).optional(),
    batchId,
    viewHash,
  }),
  z.object({ type: z.literal('decline'), reason: z.string().max(4000).optional(), batchId, viewHash }),
  z.object({ type: z.literal('choose'), option: z.string(), reply: z.string().max(4000).optional(), viewHash }),
  z.object({ type: z.literal('submit'), data: z.record(z.string(), z.unknown()), viewHash }),
]);
export type Decision = z.infer<typeof Decision>;

export const DecideResult = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('decided') }),
  /** Someone (another tab, another device) decided first, or it expired. */
  z.object({
    outcome: z.literal('already_decided'),
    status: PausePoint.shape.status,
    decidedBy: DecidedBy.optional(),
  }),
  /**
   * Claimed on the sync server for a conversation another device runs: the
   * first claim the server took, which that device applies when it reads it.
   */
  z.object({ outcome: z.literal('sent'), owner: z.string() }),
  /** The sync server could not be reached: the decision is kept and sent, create-if-absent, when it can be. */
  z.object({ outcome: z.literal('queued') }),
  /** The card's time was up when the decision arrived: it is expired now, and what it guarded does not run. */
  z.object({ outcome: z.literal('expired') }),
  z.object({ outcome: z.literal('invalid'), message: z.string() }),
  /** The card's view as it would run now is not the one the decision was made on (edited, tool changed, a warning added): nothing was decided. */
  z.object({ outcome: z.literal('changed') }),
  z.object({ outcome: z.literal('not_found') }),
]);
export type DecideResult = z.infer<typeof DecideResult>;
