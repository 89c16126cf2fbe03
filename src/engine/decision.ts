import { z } from 'zod';
import { DecidedBy, PausePoint } from './records/index.ts';

/**
 * Set by the engine's `decideBatch` on each card's decision of one `Approve
 * all` / `Decline all`: stored on the card (`PausePoint.batchId`), so the audit
 * log says which decisions were one press.
 */
const batchId = z.string().min(1).max(200).optional();

/** What the user can do with a card. Validated at the worker boundary and again by the engine. */
export const Decision = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('approve'),
    /** The payload as edited on the card; absent when approved as proposed. */
    editedPayload: z.unknown().optional(),
    reply: z.string().max(4000).optional(),
    batchId,
  }),
  z.object({ type: z.literal('decline'), reason: z.string().max(4000).optional(), batchId }),
  z.object({ type: z.literal('choose'), option: z.string(), reply: z.string().max(4000).optional() }),
  z.object({ type: z.literal('submit'), data: z.record(z.string(), z.unknown()) }),
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
  z.object({ outcome: z.literal('not_found') }),
]);
export type DecideResult = z.infer<typeof DecideResult>;
