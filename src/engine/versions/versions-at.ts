import type { Message, Versions } from '../records/index.ts';
import { ROOT_BRANCH } from '../records/root-branch.ts';
import { BranchIndex } from './branch-index.ts';

/** The versions of one place in the conversation, as the message that begins the shown one offers them. */
export interface VersionChoice {
  /** The shown version's number, from 1. */
  shown: number;
  count: number;
  /** The branch to make current for the version before / after the shown one (see `leafOf`). */
  previous?: string;
  next?: string;
}

/**
 * Per message of the current path `path` that begins a place with more than
 * one version, the choice it offers. A place is `(parent, from)`: its
 * versions are the parent's own continuation (the original, shown first)
 * and the branches forked there, oldest first.
 */
export function versionsAt(path: readonly Pick<Message, 'id' | 'seq' | 'branch'>[], versions: Versions | undefined): Map<string, VersionChoice> {
  const choices = new Map<string, VersionChoice>();
  if (!versions || versions.branches.length === 0) return choices;
  const index = new BranchIndex(versions);
  const firstOf = new Map<string, string>();
  for (const m of path) if (m.branch !== undefined && !firstOf.has(m.branch)) firstOf.set(m.branch, m.id);
  for (const m of path) {
    const owner = m.branch ?? ROOT_BRANCH;
    const own = owner === ROOT_BRANCH ? undefined : index.get(owner);
    const begins = own && firstOf.get(owner) === m.id;
    const parent = begins ? own.parent : owner;
    const from = begins ? own.from : m.seq;
    const forked = index.forkedAt(parent, from);
    if (forked.length === 0) continue;
    const shown = begins ? forked.indexOf(own) + 1 : 0;
    const leafAt = (i: number) => (i === 0 ? leafOf(index, [parent, ...index.children(parent).filter((b) => b.from > from).flatMap((b) => index.subtree(b.id))]) : leafOf(index, index.subtree(forked[i - 1]!.id)));
    choices.set(m.id, {
      shown: shown + 1,
      count: forked.length + 1,
      ...(shown > 0 ? { previous: leafAt(shown - 1) } : {}),
      ...(shown < forked.length ? { next: leafAt(shown + 1) } : {}),
    });
  }
  return choices;
}

/** Of the branches that show a version, the one current last: switching to the version shows it as it was left. */
function leafOf(index: BranchIndex, candidates: readonly string[]): string {
  let best = candidates[0] ?? ROOT_BRANCH;
  for (const id of candidates) if (index.active(id) > index.active(best)) best = id;
  return best;
}
