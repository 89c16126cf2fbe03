import type { SearchShardRow } from '../storage/records/search-records.ts';

/**
 * Term shards: the posting lists of neighbouring terms (in IndexedDB's key
 * order) packed into one row, so a build writes about a thousand rows at
 * 100,000 messages instead of one per term (twenty thousand): in Chromium
 * each put is a request to the browser's IndexedDB process, and those
 * requests were most of a build's time. A shard's key is the least term it
 * may hold; it holds every term from there to the next shard's key, so a
 * term's shard is the last one whose key is at or before it.
 */

/** Postings a shard is filled to before the next term starts another (16 kB: what a query or an update reads and rewrites for one rare term). */
export const SHARD_POSTINGS = 4_096;
/** Terms a shard is filled to: rare terms have a posting or two each. */
export const SHARD_TERMS = 512;

/** The key of the shard holding `term` among `keys` (ascending), or undefined when it comes before them all. */
export function shardKeyOf(keys: readonly string[], term: string): string | undefined {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (keys[mid]! <= term) low = mid + 1;
    else high = mid;
  }
  return low === 0 ? undefined : keys[low - 1];
}

/** A shard's terms in order, each with its postings (views on the row's array, not copies). */
export function shardEntries(row: SearchShardRow): [string, Uint32Array][] {
  if (row.terms === '') return [];
  let start = 0;
  return row.terms.split(' ').map((term, i) => {
    const end = row.ends[i]!;
    const entry: [string, Uint32Array] = [term, row.postings.subarray(start, end)];
    start = end;
    return entry;
  });
}

/** The postings of `term` in `row`, or undefined when the shard does not hold it. */
export function shardPostings(row: SearchShardRow, term: string): Uint32Array | undefined {
  const terms = row.terms.split(' ');
  const i = terms.indexOf(term);
  if (i < 0) return undefined;
  return row.postings.subarray(i === 0 ? 0 : row.ends[i - 1]!, row.ends[i]!);
}

/** The postings of every term of `row` that starts with `prefix`. */
export function shardPrefixed(row: SearchShardRow, prefix: string): Uint32Array[] {
  return shardEntries(row).flatMap(([term, postings]) => (term.startsWith(prefix) ? [postings] : []));
}

/**
 * Terms and their postings (ascending by term, none empty) packed into
 * shards: the first keyed `firstKey` (the key the range had, so it still
 * covers every term from there), each next one keyed by its first term,
 * started once the one before reaches SHARD_POSTINGS or SHARD_TERMS. A term
 * with more postings than that has a shard to itself, so an update of its
 * neighbours never rewrites it.
 */
export function packShards(firstKey: string, entries: readonly (readonly [string, Uint32Array])[]): SearchShardRow[] {
  const rows: SearchShardRow[] = [];
  let from = 0;
  while (from < entries.length) {
    let to = from;
    let count = 0;
    while (to < entries.length && (to === from || (count + entries[to]![1].length <= SHARD_POSTINGS && to - from < SHARD_TERMS))) count += entries[to++]![1].length;
    const postings = new Uint32Array(count);
    const ends = new Uint32Array(to - from);
    let at = 0;
    for (let i = from; i < to; i++) {
      postings.set(entries[i]![1], at);
      at += entries[i]![1].length;
      ends[i - from] = at;
    }
    const terms = entries.slice(from, to).map(([term]) => term);
    rows.push({ term: rows.length === 0 ? firstKey : terms[0]!, terms: terms.join(' '), ends, postings });
    from = to;
  }
  return rows;
}
