import { z } from 'zod';
import { Decision } from '../engine/decision.ts';
import { ApprovalRule, AuditEvent, Conversation, DecidedBy, DeviceSignature, LedgerEntry, Message, PausePoint, RuleStateEvent } from '../engine/records/index.ts';
import { SharedPushSettings } from '../push/push-config.ts';
import { Heads } from './rollback-heads.ts';
import { SyncDevice } from '../storage/records/sync-records.ts';

/**
 * What one encrypted document on the sync server says, once opened: which
 * record (its kind and local id, which its document id is the HMAC of), the
 * writer's version counter `n`, the device that wrote it, and the record as
 * that device stores it. The server sees none of it (envelope.ts).
 */
export const RECORD_KINDS = ['conversation', 'message', 'pausePoint', 'ledger', 'ruleEvent', 'auditEvent', 'device'] as const;

/** A decision claimed on the server: created once, by the device whose create got 201. */
export const DecisionClaim = z.object({
  pausePointId: z.string(),
  conversationId: z.string(),
  decision: Decision,
  decidedBy: DecidedBy,
  /**
   * The deciding device's signature of the decision (src/engine/signed-decision.ts),
   * made when the person pressed: the owner stores it on the pause point with
   * the decision, so the audit log attributes the decision to the device that
   * made it. Absent from claims of devices that did not sign yet.
   */
  deviceSignature: DeviceSignature.optional(),
});
export type DecisionClaim = z.infer<typeof DecisionClaim>;

const header = { v: z.literal(1), id: z.string().min(1).max(400), n: z.number().int().positive(), from: z.string().min(1).max(200) };

export const SyncDocument = z.discriminatedUnion('kind', [
  z.object({ ...header, kind: z.literal('conversation'), record: Conversation }),
  z.object({ ...header, kind: z.literal('message'), record: Message }),
  z.object({ ...header, kind: z.literal('pausePoint'), record: PausePoint }),
  z.object({ ...header, kind: z.literal('ledger'), record: LedgerEntry }),
  /** A whole rule, as devices before rule events pushed it: read, never applied (a rule is the fold of its events). */
  z.object({ ...header, kind: z.literal('rule'), record: ApprovalRule }),
  /** One event of a rule (rule-state-event.ts): created once, without `_rev`, never written again; its id is `<device>:<seq>`. */
  z.object({ ...header, kind: z.literal('ruleEvent'), record: RuleStateEvent }),
  z.object({ ...header, kind: z.literal('auditEvent'), record: AuditEvent }),
  z.object({ ...header, kind: z.literal('device'), record: SyncDevice }),
  z.object({ ...header, kind: z.literal('decision'), record: DecisionClaim }),
  /** Stop, pressed on another device: the owner stops the conversation's run (created once per press). */
  z.object({ ...header, kind: z.literal('stop'), record: z.object({ conversationId: z.string(), requestedBy: z.string() }) }),
  /** What the inviting device held when it made a pairing link (rollback-heads.ts): created once, its id the hash the link carries. */
  z.object({ ...header, kind: z.literal('heads'), record: Heads }),
  /** A pairing link's one use: whoever creates it first joined with that link. */
  z.object({ ...header, kind: z.literal('pairingUsed'), record: z.object({ deviceId: z.string() }) }),
  /** A device's push settings, shared so one device sets push up for all (src/push/shared-push-settings.ts): its id is the device's. */
  z.object({ ...header, kind: z.literal('pushSettings'), record: SharedPushSettings }),
]);
export type SyncDocument = z.infer<typeof SyncDocument>;
export type SyncKind = SyncDocument['kind'];
export type RecordOf<K extends SyncKind> = Extract<SyncDocument, { kind: K }>['record'];

/** What a grant of a rotation is bound to: the database, the epoch and the device it is for. */
export function grantContext(database: string, epoch: number, deviceId: string): string {
  return `pausepoint.rotation\n${database}\n${epoch}\n${deviceId}`;
}

/** The key of a record's row in `syncDocs`: kinds share no id space. */
export function syncKey(kind: SyncKind, id: string): string {
  return `${kind}:${id}`;
}
