import { chainEntry, chainSeal, chainStart, entryText } from '../hash-chain.ts';

type Json = Record<string, unknown>;

/**
 * A version 4 file with every hash, the chain's start and its seal computed
 * again: what anyone can do to an edited file, since the chain needs no key.
 * Tests and fixtures use it to show what only the signatures still catch.
 */
export function rechain(file: Json): Json {
  const { format, version, metadata, devices, membership } = file as { format: string; version: number; metadata: unknown; devices: unknown; membership?: unknown };
  let prev = chainStart({ format, version, metadata, devices, ...(membership === undefined ? {} : { membership }) });
  const entries = (file.entries as Json[]).map(({ prev_hash: _p, hash: _h, ...body }) => {
    const chained = chainEntry(entryText(body), prev);
    prev = chained.hash;
    return JSON.parse(chained.text) as Json;
  });
  return { ...file, entries, entry_count: entries.length, head_hash: chainSeal(prev, entries.length, file.skipped_records) };
}
