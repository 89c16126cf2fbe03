import { MembershipEntry } from '../sync/membership/membership-entry.ts';
import { EMPTY_MEMBERSHIP, fold, refusal } from '../sync/membership/membership-state.ts';
import type { AuditDevice } from './audit-entry.ts';

/**
 * Why a version 4 file's membership log does not vouch for its devices, or
 * undefined when it does: every entry must follow the one before (from the
 * log's fixed start) and be signed by a member not removed at that point, as
 * the devices themselves check it (src/sync/membership/membership-state.ts),
 * and every listed device must be a member the log names, under the key it
 * pinned. An add's proof (an HMAC under the group's data key) is not checked:
 * a reader of the file holds no data key. Without a log, the file lists the
 * device that exported it alone, and nothing vouches for it but the file.
 */
export async function membershipRefusal(devices: readonly AuditDevice[], membership: readonly unknown[] | undefined): Promise<string | undefined> {
  if (membership === undefined) return devices.length > 1 ? 'it lists more than one device without the membership log that vouches for them' : undefined;
  let state = EMPTY_MEMBERSHIP;
  for (const [index, raw] of membership.entries()) {
    const entry = MembershipEntry.safeParse(raw);
    if (!entry.success) return `its membership log's entry ${index + 1} is not a membership entry`;
    const why = await refusal(state, entry.data, () => undefined, true);
    if (why !== undefined) return `its membership log's entry ${index + 1} does not hold (${why})`;
    state = fold(state, entry.data);
  }
  const keys = new Set([...state.members.values()].map((m) => m.keyId));
  const stranger = devices.find((d) => !keys.has(d.key_id));
  return stranger ? `it lists ${stranger.name} (key ${stranger.key_id}), whom its membership log does not name` : undefined;
}
