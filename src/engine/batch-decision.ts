import { z } from 'zod';
import { DecideResult } from './decision.ts';

/** At most this many cards in one press: an inbox screenful many times over, and a bound on one intent's work. */
export const MAX_BATCH = 200;

/**
 * What `Approve all` / `Decline all` decides each card with: a plain approval
 * (no edited payload, no reply) or a decline with one reason for all.
 */
export const BatchDecision = z.discriminatedUnion('type', [
  z.object({ type: z.literal('approve') }),
  z.object({ type: z.literal('decline'), reason: z.string().max(4000).optional() }),
]);
export type BatchDecision = z.infer<typeof BatchDecision>;

/** One card's part of a batch: what its own decision came to, or why it could not be sent. */
export const BatchCardResult = z.object({
  pausePointId: z.string(),
  result: z.union([DecideResult, z.object({ outcome: z.literal('failed'), message: z.string() })]),
});
export type BatchCardResult = z.infer<typeof BatchCardResult>;

export const BatchResult = z.object({ batchId: z.string(), cards: z.array(BatchCardResult) });
export type BatchResult = z.infer<typeof BatchResult>;
