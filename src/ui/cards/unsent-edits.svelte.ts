/**
 * The payload edits made on this page's cards and not sent yet, by card id
 * (PendingDecision writes its draft's edit here while it is valid and differs
 * from the proposal). The card renders its decision view with it — the
 * arguments as they will run — and `Approve all` leaves such a card out: an
 * approval there would send the proposal, not what the person now sees.
 * A Map replaced on each change (`$state.raw`), not svelte/reactivity's
 * SvelteMap, which would add its code to the page's start (npm run size).
 */
class UnsentEdits {
  #edits: ReadonlyMap<string, Record<string, unknown>> = $state.raw(new Map());

  get(pausePointId: string): Record<string, unknown> | undefined {
    return this.#edits.get(pausePointId);
  }

  has(pausePointId: string): boolean {
    return this.#edits.has(pausePointId);
  }

  set(pausePointId: string, edit: Record<string, unknown>): void {
    this.#edits = new Map([...this.#edits, [pausePointId, edit]]);
  }

  delete(pausePointId: string): void {
    if (this.#edits.has(pausePointId)) this.#edits = new Map([...this.#edits].filter(([id]) => id !== pausePointId));
  }

  clear(): void {
    this.#edits = new Map();
  }
}

export const unsentEdits = new UnsentEdits();
