import type { Versions } from '../records/index.ts';
import { ROOT_BRANCH } from '../records/root-branch.ts';
import { BranchIndex } from './branch-index.ts';

/** `versions` with `branchId` current and the latest active; undefined when there is no such branch. */
export function makeCurrent(versions: Versions, branchId: string): Versions | undefined {
  const index = new BranchIndex(versions);
  if (!index.has(branchId)) return undefined;
  const active = index.latestActive() + 1;
  if (branchId === ROOT_BRANCH) return { ...versions, current: branchId, rootActive: active };
  return { ...versions, current: branchId, branches: versions.branches.map((b) => (b.id === branchId ? { ...b, active } : b)) };
}
