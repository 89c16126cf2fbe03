/**
 * Keeps the previous object for every item that did not change.
 *
 * A live query re-reads its rows on every write, so each emission brings new
 * objects even for rows nobody touched. Handing those to a keyed `{#each}`
 * would update every row; handing back the old objects means only the rows
 * whose content changed (the message that is streaming) do any work. When
 * nothing changed at all the previous array itself is returned, and assigning
 * it to `$state.raw` is a no-op.
 */
export class StableList<T extends { id: string }> {
  #previous: readonly T[] = [];
  readonly #same: (a: T, b: T) => boolean;

  constructor(same: (a: T, b: T) => boolean) {
    this.#same = same;
  }

  reconcile(next: readonly T[]): readonly T[] {
    const previous = this.#previous;
    const byId = new Map<string, T>();
    for (const item of previous) byId.set(item.id, item);
    let changed = previous.length !== next.length;
    const out = next.map((item, index) => {
      const old = byId.get(item.id);
      const kept = old !== undefined && this.#same(old, item) ? old : item;
      if (kept !== previous[index]) changed = true;
      return kept;
    });
    if (!changed) return previous;
    this.#previous = out;
    return out;
  }
}
