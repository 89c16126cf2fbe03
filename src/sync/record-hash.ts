import { canonicalJson } from '../audit/canonical-json.ts';
import { sha256HexSync } from '../audit/sha256-sync.ts';

/**
 * What a record was when it was last pushed or applied, to push only what
 * changed since: canonical JSON, so two reads of the same record (whatever
 * order its members were stored in) hash alike.
 */
export function recordHash(record: unknown): string {
  return sha256HexSync(canonicalJson(record));
}
