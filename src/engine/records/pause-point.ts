import { z } from 'zod';
import { RuleEffect } from './approval-rule.ts';
import { DeviceSignature } from './device-signature.ts';

export const PAUSE_KINDS = ['approval', 'choice', 'data_entry'] as const;
export const PauseKind = z.enum(PAUSE_KINDS);
export type PauseKind = z.infer<typeof PauseKind>;

export const PauseStatus = z.enum(['pending', 'resolved', 'expired']);

/**
 * What the call a card guards does, at a glance: it reads, it changes
 * something, it destroys something, or nothing about the call says
 * (src/engine/risk-label.ts decides which, and its card shows it as text).
 */
export const RISKS = ['reads', 'changes', 'destructive', 'unknown'] as const;
export const Risk = z.enum(RISKS);
export type Risk = z.infer<typeof Risk>;
export type PauseStatus = z.infer<typeof PauseStatus>;

/**
 * Who decided: the tab (a per-tab id) and the device (a per-browser id and a
 * readable label). `via: 'sync'` when the decision reached the conversation's
 * owner from another device through the sync server (src/sync); `via: 'timeout'` when nobody
 * decided in time and Settings' `If nobody decides` declined it (the tab and device that ran it).
 */
export const DecidedBy = z.object({ tabId: z.string(), deviceId: z.string(), label: z.string(), via: z.enum(['sync', 'timeout']).optional() });
export type DecidedBy = z.infer<typeof DecidedBy>;

/** The rule behind a pause point, as it was when it applied. */
export const PauseRule = z.object({ id: z.string(), effect: RuleEffect, text: z.string() });
export type PauseRule = z.infer<typeof PauseRule>;

/**
 * Where an MCP tool comes from, as the call's card showed it: the server (its
 * id, URL and the name the user knows it by), the tool's own name there, and
 * the hash of its definition as listed (src/mcp/definition-pin.ts). Kept on
 * every pause point of the call, so the audit log says which server's which
 * tool a decision was about even after the server is removed.
 */
export const McpToolSource = z.object({
  serverId: z.string(),
  serverUrl: z.string(),
  serverName: z.string(),
  toolName: z.string(),
  definitionHash: z.string(),
});
export type McpToolSource = z.infer<typeof McpToolSource>;

/** Which question of which MCP task a card answers (`PausePoint.taskInput`). */
export const TaskInput = z.object({ taskId: z.string().min(1).max(500), key: z.string().min(1).max(500) });
export type TaskInput = z.infer<typeof TaskInput>;

/**
 * One record per pause: the canonical audit log of human decisions.
 * Field names follow the product contract (`conversation_id` is `conversationId` here
 * because every stored record in this codebase is camelCase; exports use the contract's names).
 */
export const PausePoint = z.object({
  v: z.literal(1),
  id: z.string(),
  conversationId: z.string(),
  turnIndex: z.number().int().nonnegative(),
  title: z.string(),
  description: z.string(),
  options: z.array(z.string()).nullable(),
  payload: z.unknown().nullable(),
  kind: PauseKind,
  status: PauseStatus,
  /** `approve`, `decline`, the chosen option, or the submitted form data. */
  resolution: z.unknown().nullable(),
  resolvedAt: z.number().nullable(),
  createdAt: z.number(),
  /**
   * Why this pause exists: the model asked (`wait_for_approval`), a tool's gate
   * (or an `ask` rule) asked for this call, a tool call's outcome is unknown
   * after a crash, an approval rule decided the call without asking (`rule`:
   * stored already resolved, so an automatic decision is on record as
   * completely as a human one), or a tool asked the user while it was running
   * (`elicitation`: an MCP server's question, or whether http_request may
   * follow a redirect; answered to the tool, not to the model, and lost if
   * the run ends first), or a model call would pass
   * the user's token or money limit (`limit`: answered to the engine, never
   * to the model; see spending-gate.ts).
   */
  origin: z.enum(['model', 'gate', 'unknown_outcome', 'rule', 'elicitation', 'limit']),
  /** The tool call this pause belongs to (for `model`, the wait_for_approval call itself). */
  toolCallId: z.string(),
  toolName: z.string(),
  editedPayload: z.unknown().optional(),
  /** The decline reason, or the free-text reply given with another decision. */
  reason: z.string().optional(),
  expiresAt: z.number().nullable(),
  /**
   * `decline`: at `expiresAt` the card is declined rather than expired (Settings' `If nobody decides`),
   * decided by the timeout through the same compare-and-set as a person's decision. Absent: it expires.
   */
  onTimeout: z.literal('decline').optional(),
  /** `lost`: the running call that asked ended (Stop, its tab closed) before a decision. */
  expiredReason: z.enum(['timeout', 'abandoned', 'lost']).optional(),
  decidedBy: DecidedBy.optional(),
  /**
   * The approval rule that decided this call (`origin: 'rule'`) or had it
   * asked (an `ask` rule's card), with its text as it read then: the rule may
   * be changed or removed later, the record of what it said may not.
   */
  rule: PauseRule.optional(),
  /** Dry-run rules that would have decided this call had they been active: the card says so ("Rule … would allow this"). */
  dryRuns: z.array(PauseRule).optional(),
  /**
   * The hash of the tool's definition as the model was given it when the card
   * was made or a rule decided (see definition-hash.ts). Absent on records
   * written before every pause point carried it, and for a tool that is gone.
   */
  definitionHash: z.string().optional(),
  /** For a call of an MCP server's tool: which server and tool (see `McpToolSource`). */
  mcp: McpToolSource.optional(),
  /**
   * True when a backup brought this record here already decided (or expired):
   * its decision was made in another browser, not in this one. The engine does
   * not run a call on such an approval (see restored-decisions.ts); a pending
   * card from a backup carries no flag, since deciding it is a decision here.
   */
  restored: z.boolean().optional(),
  /** Set on a gate card whose call the tool marks irreversible (`ToolDefinition.irreversible`). */
  irreversible: z.boolean().optional(),
  /**
   * On a `limit` card: which limit the next call would pass, what was used,
   * the limit, the estimate and by how much, as they were when it asked; and
   * the conversation's `nextSeq` then, which ties the card to that point of
   * the conversation (a new message from the user asks again).
   */
  limit: z
    .object({
      kind: z.enum(['tokens', 'cost', 'day']),
      used: z.number().nonnegative(),
      max: z.number().nonnegative(),
      estimate: z.number().nonnegative(),
      over: z.number(),
      atSeq: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * The call's risk label (see `Risk`), set when the card is made. Absent on
   * records written before cards carried one.
   */
  risk: Risk.optional(),
  /**
   * Set when this card was decided with others in one press (`Approve all`,
   * `Decline all`): the batch's id, the same on each of its cards. Each card
   * is still its own decision, its own compare-and-set and audit entry.
   */
  batchId: z.string().optional(),
  /**
   * The `view_hash` of the decision view the decision was made on
   * (src/engine/view-hash.ts): what the person was shown, bound to what was
   * decided. Absent on records decided before decisions carried it, and on
   * those no person decided (a rule, an expiry).
   */
  viewHash: z.string().optional(),
  /**
   * The deciding device's signature over the decision (signed-decision.ts
   * says what `signed` holds), made when the decision was made and stored in
   * the same compare-and-set: a person's on the device they pressed on (a
   * phone's travels in its sync claim), a rule's, an expiry's or a timeout's
   * by the device that ran it. Absent on records decided before decisions were
   * signed, and while pending.
   */
  deviceSignature: DeviceSignature.optional(),
  /**
   * MCP Apps (issue 36): the call was proposed by an app's view, not by the
   * model (its card says so, and the audit log's `proposed_by`). `viewCallId`:
   * the call row whose view asked.
   */
  fromView: z.object({ viewCallId: z.string().min(1).max(200) }).optional(),
  /**
   * On an `elicitation` card that an MCP server's task asked (its Tasks
   * extension): the task and the key of its question. The task waits on its
   * server for the answer whatever becomes of the tab, so the card outlives the
   * run that asked it: the run that follows the task next answers with it
   * (call-context.ts) rather than asking again.
   */
  taskInput: TaskInput.optional(),
});
export type PausePoint = z.infer<typeof PausePoint>;
