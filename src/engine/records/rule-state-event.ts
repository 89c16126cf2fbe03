import { z } from 'zod';
import { ApprovalRule } from './approval-rule.ts';

/**
 * What decides about a rule, apart from how this device used it: the rule as
 * it was made. Usage (`uses`, `lastUsedAt`) is per device and never in an event.
 */
export const RuleDefinition = ApprovalRule.omit({ lastUsedAt: true, uses: true });
export type RuleDefinition = z.infer<typeof RuleDefinition>;

/** Names at most this many disables an enable undoes: far beyond what a person presses. */
const MAX_UNDOES = 1_000;
const EventId = z.string().min(1).max(500);

/**
 * One change of a rule's deciding state. `created` carries the definition
 * (with the state it starts in); an enable names the disables it undoes,
 * those its device had seen when it was pressed, so an enable written without
 * having seen a disable leaves that disable standing; `activated` is `Make
 * active` (a dry run starts deciding), an enable too; `removed` is final.
 */
export const RuleStateChange = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('created'), rule: RuleDefinition }),
  z.object({ kind: z.literal('disabled') }),
  z.object({ kind: z.literal('enabled'), undoes: z.array(EventId).max(MAX_UNDOES) }),
  z.object({ kind: z.literal('activated'), undoes: z.array(EventId).max(MAX_UNDOES) }),
  z.object({ kind: z.literal('removed') }),
]);
export type RuleStateChange = z.infer<typeof RuleStateChange>;

/**
 * A rule event (table `ruleEvents`, synced as a document created once and
 * never written again): immutable, so the state it folds to
 * (fold-rule-events.ts) is the same on every device that holds the same
 * events, whatever order they came in. Each device numbers the events it
 * writes from 1 with no gap (`seq`); the id says which (`<device>:<seq>`), so
 * a pairing link can name how many of each device's events a new device must
 * see before its rules decide (docs/security.md, the rollback guard).
 */
export const RuleStateEvent = z.object({
  v: z.literal(1),
  id: EventId,
  ruleId: z.string().min(1).max(400),
  /** The device that wrote it (its `deviceId`). */
  device: z.string().min(1).max(200),
  seq: z.number().int().positive(),
  /** When it was written, by its device's clock: shown, never compared. */
  at: z.number(),
  change: RuleStateChange,
});
export type RuleStateEvent = z.infer<typeof RuleStateEvent>;

export function ruleEventId(device: string, seq: number): string {
  return `${device}:${seq}`;
}
