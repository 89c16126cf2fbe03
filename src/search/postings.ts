/**
 * Posting lists: ascending document numbers in a Uint32Array, which
 * IndexedDB stores as one copy of its bytes (a number array would be
 * cloned element by element).
 */

/** `list` with `added` put in and `removed` taken out (both ascending, in any relation to `list`). */
export function updatePostings(list: Uint32Array, added: readonly number[], removed: readonly number[]): Uint32Array {
  const out = new Uint32Array(list.length + added.length);
  let i = 0;
  let a = 0;
  let r = 0;
  let n = 0;
  const put = (value: number) => {
    while (r < removed.length && removed[r]! < value) r++;
    if (r < removed.length && removed[r] === value) return;
    if (n > 0 && out[n - 1] === value) return;
    out[n++] = value;
  };
  while (i < list.length || a < added.length) {
    if (a >= added.length || (i < list.length && list[i]! <= added[a]!)) put(list[i++]!);
    else put(added[a++]!);
  }
  return n === out.length ? out : out.slice(0, n);
}

/** The documents in every list (the shortest drives: each of its entries is looked up in the others). */
export function intersect(lists: readonly Uint32Array[]): Uint32Array {
  if (lists.length === 0) return new Uint32Array(0);
  const [shortest, ...others] = [...lists].sort((x, y) => x.length - y.length);
  const out = new Uint32Array(shortest!.length);
  let n = 0;
  const at = others.map(() => 0);
  outer: for (const value of shortest!) {
    for (let k = 0; k < others.length; k++) {
      const list = others[k]!;
      const found = seek(list, value, at[k]!);
      at[k] = found;
      if (found >= list.length || list[found] !== value) continue outer;
    }
    out[n++] = value;
  }
  return out.slice(0, n);
}

/** The documents in any of the lists. */
export function union(lists: readonly Uint32Array[]): Uint32Array {
  if (lists.length === 1) return lists[0]!;
  let total = 0;
  for (const list of lists) total += list.length;
  const all = new Uint32Array(total);
  let n = 0;
  for (const list of lists) {
    all.set(list, n);
    n += list.length;
  }
  all.sort();
  let kept = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[kept++] = all[i]!;
  return all.slice(0, kept);
}

/** The first index at or after `from` whose value is ≥ `value` (galloping, then binary search). */
function seek(list: Uint32Array, value: number, from: number): number {
  let step = 1;
  let low = from;
  let high = from;
  while (high < list.length && list[high]! < value) {
    low = high + 1;
    high += step;
    step *= 2;
  }
  high = Math.min(high, list.length);
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
