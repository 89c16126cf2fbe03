import type { Branch, Versions } from '../records/index.ts';
import { ROOT_BRANCH } from '../records/root-branch.ts';

/**
 * Lookups over a conversation's branches. The records may come from another
 * device (sync) or a file: ids are looked up in prototype-free maps, and
 * every walk is bounded, so a malformed record (a cycle, a missing parent)
 * shows less rather than hanging or throwing.
 */
export class BranchIndex {
  readonly #byId = new Map<string, Branch>();
  readonly #children = new Map<string, Branch[]>();

  constructor(readonly versions: Versions) {
    for (const branch of versions.branches) {
      if (branch.id === ROOT_BRANCH || this.#byId.has(branch.id)) continue;
      this.#byId.set(branch.id, branch);
      const siblings = this.#children.get(branch.parent);
      if (siblings) siblings.push(branch);
      else this.#children.set(branch.parent, [branch]);
    }
    // In the order they were made: stored order breaks ties of `createdAt`.
    for (const siblings of this.#children.values()) siblings.sort((a, b) => a.createdAt - b.createdAt);
  }

  get(id: string): Branch | undefined {
    return this.#byId.get(id);
  }

  has(id: string): boolean {
    return id === ROOT_BRANCH || this.#byId.has(id);
  }

  children(parent: string): readonly Branch[] {
    return this.#children.get(parent) ?? [];
  }

  /** The branches forked at the same place, `(parent, from)`, oldest first: a position's versions after its original. */
  forkedAt(parent: string, from: number): Branch[] {
    return this.children(parent).filter((b) => b.from === from);
  }

  active(id: string): number {
    return id === ROOT_BRANCH ? this.versions.rootActive : (this.#byId.get(id)?.active ?? -1);
  }

  /** The largest `active` so far: the next one made current gets one more. */
  latestActive(): number {
    let latest = this.versions.rootActive;
    for (const branch of this.#byId.values()) latest = Math.max(latest, branch.active);
    return latest;
  }

  /** `id` and every branch below it. */
  subtree(id: string): string[] {
    const found: string[] = [];
    const seen = new Set<string>();
    const stack = [id];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next) || !this.has(next)) continue;
      seen.add(next);
      found.push(next);
      for (const child of this.children(next)) stack.push(child.id);
    }
    return found;
  }
}
