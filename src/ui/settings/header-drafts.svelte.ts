import { SvelteMap } from 'svelte/reactivity';
import type { CustomHeader } from '../../storage/custom-headers.ts';

/** A row of the Custom headers group; `id` keeps a row's inputs when rows above it go. */
export interface HeaderRow extends CustomHeader {
  readonly id: string;
}

/**
 * What the settings form's Custom headers group holds, per endpoint origin,
 * like ApiKeyDrafts for the key: the rows edited there, else the headers saved
 * for it, else none. Rows edited for one origin are never shown — and so never
 * tested or saved — for another. A base URL with no origin (half typed) has
 * rows of its own that no real origin inherits.
 */
export class HeaderDrafts {
  readonly #edited = new SvelteMap<string, readonly HeaderRow[]>();
  /** Replaced whole, never changed in place. */
  #saved: ReadonlyMap<string, readonly CustomHeader[]> | undefined = $state.raw();
  #next = 0;

  constructor(saved?: ReadonlyMap<string, readonly CustomHeader[]>) {
    this.#saved = saved;
  }

  /** The headers saved in this browser (they arrive after the form opens); rows edited meanwhile stay. */
  loaded(saved: ReadonlyMap<string, readonly CustomHeader[]>): void {
    this.#saved = saved;
  }

  rowsFor(origin: string | undefined): readonly HeaderRow[] {
    const edited = this.#edited.get(origin ?? NO_ORIGIN);
    if (edited) return edited;
    const saved = origin === undefined ? undefined : this.#saved?.get(origin);
    // Ids from the position: the same saved rows get the same ids on every read.
    return (saved ?? []).map(({ name, value }, index) => ({ id: `saved-${index}`, name, value }));
  }

  add(origin: string | undefined): void {
    this.#set(origin, [...this.rowsFor(origin), { id: `new-${this.#next++}`, name: '', value: '' }]);
  }

  edit(origin: string | undefined, id: string, change: Partial<CustomHeader>): void {
    this.#set(
      origin,
      this.rowsFor(origin).map((row) => (row.id === id ? { ...row, ...change } : row)),
    );
  }

  remove(origin: string | undefined, id: string): void {
    this.#set(
      origin,
      this.rowsFor(origin).filter((row) => row.id !== id),
    );
  }

  /**
   * The origin's headers as the form sends them — trimmed, rows left wholly
   * empty dropped — and the id of each one's row, for its field errors.
   */
  headersFor(origin: string | undefined): { headers: CustomHeader[]; ids: string[] } {
    const rows = this.rowsFor(origin)
      .map(({ id, name, value }) => ({ id, name: name.trim(), value: value.trim() }))
      .filter(({ name, value }) => name !== '' || value !== '');
    return { headers: rows.map(({ name, value }) => ({ name, value })), ids: rows.map(({ id }) => id) };
  }

  #set(origin: string | undefined, rows: readonly HeaderRow[]): void {
    this.#edited.set(origin ?? NO_ORIGIN, rows);
  }
}

/** Not an origin any URL has: origins are `scheme://host[:port]`. */
const NO_ORIGIN = '';
