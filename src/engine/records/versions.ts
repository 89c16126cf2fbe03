import { z } from 'zod';
import { ROOT_BRANCH } from './root-branch.ts';

export { ROOT_BRANCH };

/**
 * One version branch of a conversation (Edit, Regenerate). Messages are never
 * rewritten: a version is a branch whose path is its parent's path before
 * `from`, then the messages written on it (`Message.branch`). See
 * src/engine/versions/ for what is read from these.
 */
export const Branch = z.object({
  id: z.string().min(1).max(200),
  /** The branch it forked from; ROOT_BRANCH (`''`) for the root. */
  parent: z.string().max(200),
  /** A `seq`: the branch keeps its parent's path before it (the message it replaces is at it). */
  from: z.number().int().nonnegative(),
  /**
   * When it was last made current, as a count (not a time): the branch with
   * the largest is the one shown when a version is switched to. A counter, so
   * two switches in one clock tick still order.
   */
  active: z.number().int().nonnegative(),
  createdAt: z.number(),
});
export type Branch = z.infer<typeof Branch>;

/**
 * A conversation's versions. Absent on a conversation that has none, which is
 * stored, synced and exported exactly as before.
 */
export const Versions = z.object({
  /** The branch shown and run: ROOT_BRANCH or one of `branches`. */
  current: z.string().max(200),
  /** The root's `active` (the root is no entry of `branches`). */
  rootActive: z.number().int().nonnegative(),
  branches: z.array(Branch).max(10_000),
});
export type Versions = z.infer<typeof Versions>;
