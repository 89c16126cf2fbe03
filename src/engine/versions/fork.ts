import type { Message, Versions } from '../records/index.ts';
import { ROOT_BRANCH } from '../records/root-branch.ts';
import { BranchIndex } from './branch-index.ts';

export const NO_VERSIONS: Versions = Object.freeze({ current: ROOT_BRANCH, rootActive: 0, branches: [] });

/**
 * A new version that replaces `at` (a message of the current path `path`)
 * and what follows it, made current. A fork at the first message of a
 * branch forks where that branch forked, so editing version 2's message
 * makes version 3 of the same place, not a version 1 of 2 nested inside it.
 */
export function fork(
  versions: Versions | undefined,
  path: readonly Pick<Message, 'id' | 'seq' | 'branch'>[],
  at: Pick<Message, 'id' | 'seq' | 'branch'>,
  branch: { id: string; createdAt: number },
): Versions {
  const current = versions ?? NO_VERSIONS;
  const index = new BranchIndex(current);
  const owner = at.branch ?? ROOT_BRANCH;
  const ownBranch = owner === ROOT_BRANCH ? undefined : index.get(owner);
  const first = ownBranch && path.find((m) => (m.branch ?? ROOT_BRANCH) === owner);
  const place = ownBranch && first?.id === at.id ? { parent: ownBranch.parent, from: ownBranch.from } : { parent: owner, from: at.seq };
  return {
    current: branch.id,
    rootActive: current.rootActive,
    branches: [...current.branches, { id: branch.id, ...place, active: index.latestActive() + 1, createdAt: branch.createdAt }],
  };
}
