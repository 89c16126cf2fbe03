import type { Branch, Message, Versions } from '../records/index.ts';
import { ROOT_BRANCH } from '../records/root-branch.ts';

/**
 * Whether a stored message is in the conversation's current version. A pure
 * function of its `seq` and `branch`, so it filters a page of messages as
 * well as the whole history (ConversationTail reads pages):
 * path(B) = path(parent(B)) before B.from, then the messages written on B.
 * Without versions every message is. On the page's start path (the
 * conversation view filters with it), so it stays this small: the rest of
 * this module loads with the first conversation that has versions.
 */
export function onPath(versions: Versions | undefined): (message: Pick<Message, 'seq' | 'branch'>) => boolean {
  if (!versions) return () => true;
  // Own-property lookups only: the record may come from another device or a file.
  // The first of a repeated id counts, as in BranchIndex.
  const byId = new Map<string, Branch>();
  for (const branch of versions.branches) if (!byId.has(branch.id)) byId.set(branch.id, branch);
  /** Per branch of the current one's line: the seq its messages are shown below. */
  const below = new Map<string, number>();
  let limit = Number.POSITIVE_INFINITY;
  let at = versions.current;
  // Bounded by the number of branches: a cycle in a malformed record ends the walk.
  for (let steps = 0; steps <= versions.branches.length && !below.has(at); steps++) {
    if (at === ROOT_BRANCH) {
      below.set(ROOT_BRANCH, limit);
      break;
    }
    const branch = byId.get(at);
    if (!branch) break;
    below.set(at, limit);
    limit = Math.min(limit, branch.from);
    at = branch.parent;
  }
  return (message) => {
    const limitOf = below.get(message.branch ?? ROOT_BRANCH);
    return limitOf !== undefined && message.seq < limitOf;
  };
}

/** The messages of the current version, in the order given (seq order); the same array when there are no versions. */
export function currentPath<M extends Pick<Message, 'seq' | 'branch'>>(messages: readonly M[], versions: Versions | undefined): readonly M[] {
  if (!versions) return messages;
  return messages.filter(onPath(versions));
}
