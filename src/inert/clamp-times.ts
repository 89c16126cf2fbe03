import type { ApprovalRule, AuditEvent, Conversation, LedgerEntry, Message, PausePoint, Versions } from '../engine/records/index.ts';

/*
 * Times a foreign record says something happened, held to no later than when
 * it came here. A record from elsewhere is ordered, counted and compared by
 * these: a card dated in the year 2100 would be the newest decision on its call
 * for ever, an answer dated tomorrow would be counted in tomorrow's spending,
 * a note dated ahead would win every later comparison. Deadlines (a rule's or
 * a card's `expiresAt`, a retry's `retryAt`) are not clamped: they are meant to
 * lie ahead, and each is dropped or left inert where that matters.
 */

/** `time`, or `at` when `time` lies after it. */
export function clampTime(time: number, at: number): number {
  return time > at ? at : time;
}

function clampNullable(time: number | null, at: number): number | null {
  return time === null ? null : clampTime(time, at);
}

export function clampVersions(versions: Versions, at: number): Versions {
  return { ...versions, branches: versions.branches.map((branch) => ({ ...branch, createdAt: clampTime(branch.createdAt, at) })) };
}

export function clampConversation(conversation: Conversation, at: number): Conversation {
  return {
    ...conversation,
    createdAt: clampTime(conversation.createdAt, at),
    updatedAt: clampTime(conversation.updatedAt, at),
    ...(conversation.sampled ? { sampled: conversation.sampled.map((call) => ({ ...call, at: clampTime(call.at, at) })) } : {}),
    ...(conversation.versions ? { versions: clampVersions(conversation.versions, at) } : {}),
  };
}

export function clampMessage<M extends Message>(message: M, at: number): M {
  return { ...message, createdAt: clampTime(message.createdAt, at) };
}

export function clampPausePoint(pause: PausePoint, at: number): PausePoint {
  return { ...pause, createdAt: clampTime(pause.createdAt, at), resolvedAt: clampNullable(pause.resolvedAt, at) };
}

export function clampLedgerEntry(entry: LedgerEntry, at: number): LedgerEntry {
  return { ...entry, startedAt: clampTime(entry.startedAt, at), finishedAt: clampNullable(entry.finishedAt, at) };
}

export function clampRule(rule: ApprovalRule, at: number): ApprovalRule {
  return { ...rule, createdAt: clampTime(rule.createdAt, at), lastUsedAt: clampNullable(rule.lastUsedAt, at) };
}

export function clampAuditEvent(event: AuditEvent, at: number): AuditEvent {
  return { ...event, at: clampTime(event.at, at) };
}

/** A record with only its making and its last change to clamp (a note). */
export function clampDated<T extends { createdAt: number; updatedAt: number }>(record: T, at: number): T {
  return { ...record, createdAt: clampTime(record.createdAt, at), updatedAt: clampTime(record.updatedAt, at) };
}
