import { z } from 'zod';

/** What the user can do with a card. Validated at the worker boundary and again by the engine. */
export const Decision = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('approve'),
    /** The payload as edited on the card; absent when approved as proposed. */
    editedPayload: z.unknown().optional(),
    reply: z.string().max(4000).optional(),
  }),
  z.object({ type: z.literal('decline'), reason: z.string().max(4000).optional() }),
  z.object({ type: z.literal('choose'), option: z.string(), reply: z.string().max(4000).optional() }),
  z.object({ type: z.literal('submit'), data: z.record(z.string(), z.unknown()) }),
]);
export type Decision = z.infer<typeof Decision>;
