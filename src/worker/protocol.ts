import { z } from 'zod';
import { BatchDecision, MAX_BATCH, type BatchResult } from '../engine/batch-decision.ts';
import { Decision, ViewHash, type DecideResult } from '../engine/decision.ts';
import type { RulePreview } from '../engine/preview-rule.ts';
import { ApprovalRuleDraft, AttachmentRefs, Instructions } from '../engine/records/index.ts';
import { McpServerDraft } from '../mcp/mcp-server-draft.ts';
import { ViewToolCall, type ViewToolCallAnswer } from '../mcp/view-tool-call.ts';
import type { SignInStart, SignOutResult } from '../mcp/oauth/mcp-oauth.ts';
import type { ViewResource } from '../mcp/ui-resource.ts';
import type { SearchResults } from '../search/search-result.ts';
import type { SuggestedPassphrase } from '../sync/passphrase/four-word-phrase.ts';
import type { PassphraseStrength } from '../sync/passphrase/passphrase-strength.ts';
import { JoinWithPairing, TurnOnSync, type PairingInvite, type SyncResult } from '../sync/sync-control.ts';

/**
 * A person's decision as a surface sends it: bound to the decision view it showed
 * (the card, Approve all, the inbox; decision.ts). The engine still takes an
 * unbound decision from its own callers (a rule, an expiry, a timeout), but
 * nothing that comes over this protocol is one: a surface that forgot the hash
 * is refused here rather than deciding on a view nobody checked.
 */
const ShownDecision = z.intersection(Decision, z.object({ viewHash: ViewHash }));

/**
 * The page ↔ worker protocol. The page sends intents; everything the user sees
 * comes from IndexedDB through live queries, so responses carry only what an
 * intent needs to report (an id, a refusal). Both sides parse with these schemas.
 */
/** What Settings › MCP servers asks of the worker (src/worker/mcp-host.ts). */
export const McpIntent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('mcpAdd'), ...McpServerDraft.shape }),
  /** Connect (true) or Disconnect (false). */
  z.object({ type: z.literal('mcpSetEnabled'), serverId: z.string(), enabled: z.boolean() }),
  z.object({ type: z.literal('mcpSetTrusted'), serverId: z.string(), trusted: z.boolean() }),
  z.object({ type: z.literal('mcpSetToolEnabled'), serverId: z.string(), toolName: z.string(), enabled: z.boolean() }),
  z.object({ type: z.literal('mcpRemove'), serverId: z.string() }),
  /** OAuth sign-in, first half: answers with the authorization URL the page opens (the worker cannot navigate). */
  z.object({ type: z.literal('mcpBeginSignIn'), serverId: z.string(), redirectUrl: z.url({ protocol: /^https?$/ }) }),
  /** Second half: what the callback page received; the worker checks the state. */
  z.object({
    type: z.literal('mcpFinishSignIn'),
    serverId: z.string(),
    code: z.string().min(1).max(4_000),
    state: z.string().min(1).max(1_000),
    /** RFC 9207: who sent the answer, when the authorization server says (the worker compares it with the pinned issuer). */
    iss: z.string().max(2_000).nullable(),
  }),
  z.object({ type: z.literal('mcpSignOut'), serverId: z.string() }),
  /** Cancel on a call its MCP server runs as a task: `tasks/cancel` for the task its ledger entry names. */
  z.object({ type: z.literal('mcpCancelTask'), conversationId: z.string(), toolCallId: z.string() }),
  /** `Show interactive views` (MCP Apps, issue 36): on or off for this server. */
  z.object({ type: z.literal('mcpSetShowViews'), serverId: z.string(), on: z.boolean() }),
  /** A call's view: `resources/read` of the `ui://` resource one of the server's tools declares (the hub checks which). */
  z.object({ type: z.literal('mcpReadView'), serverId: z.string().max(200), resourceUri: z.string().max(2048).startsWith('ui://') }),
]);
export type McpIntent = z.infer<typeof McpIntent>;

/** What Settings › Devices and the Join dialog ask of the worker (src/worker/sync-host.ts). */
export const SyncIntent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('syncTurnOn'), ...TurnOnSync.shape }),
  /** Keeps everything local: stops following the server and forgets its address, password and key. */
  z.object({ type: z.literal('syncTurnOff') }),
  /** `Add a device`: a fresh pairing link and code, good for 15 minutes and one use. */
  z.object({ type: z.literal('syncAddDevice') }),
  z.object({ type: z.literal('syncJoin'), ...JoinWithPairing.shape }),
  /** `Remove`: the device can no longer read what is written after (the data key is rotated). */
  z.object({ type: z.literal('syncRemoveDevice'), deviceId: z.string().min(1).max(200) }),
  z.object({ type: z.literal('syncRenameDevice'), name: TurnOnSync.shape.deviceName }),
  /** Try the server again now instead of at the next backoff. */
  z.object({ type: z.literal('syncRetry') }),
  /**
   * The meter under `Encryption passphrase`: zxcvbn's estimate, with what else the form holds counted against it.
   * Measured here, where turning sync on checks it again, so zxcvbn's dictionaries (1.6 MB) are one copy, in the
   * worker's chunks only, and no measure takes the page's main thread.
   */
  z.object({
    type: z.literal('syncPassphraseStrength'),
    passphrase: TurnOnSync.shape.passphrase,
    userInputs: z.array(z.string().max(2048)).max(32),
  }),
  /** `Suggest a passphrase`: four words from the diceware list (zxcvbn's, so it too stays in the worker's chunks). */
  z.object({ type: z.literal('syncSuggestPassphrase') }),
]);
export type SyncIntent = z.infer<typeof SyncIntent>;

export const Intent = z.discriminatedUnion('type', [
  ...McpIntent.options,
  ...SyncIntent.options,
  /** Sends a user message; with `conversationId: null` starts a new conversation. */
  z
    .object({
      type: z.literal('send'),
      conversationId: z.string().nullable(),
      text: z.string().max(100_000),
      /** Files the page stored in the attachments table before sending (the message never names bytes that are not there). */
      attachments: AttachmentRefs.optional(),
    })
    .refine((intent) => intent.text.length > 0 || (intent.attachments?.length ?? 0) > 0, 'A message needs text or a file.'),
  /**
   * `Edit` → `Send`: a new version of the conversation from the person's message `messageId`, starting with
   * `text`, with the message's files whose ids `keep` names (all of them without it; words or a file are needed).
   */
  z
    .object({
      type: z.literal('editMessage'),
      conversationId: z.string(),
      messageId: z.string(),
      text: z.string().trim().max(100_000),
      keep: z.array(z.string().max(200)).max(100).optional(),
    })
    .refine((intent) => intent.text.length > 0 || (intent.keep?.length ?? 0) > 0, 'A message needs text or a file.'),
  /** `Regenerate`: the shown version's last answer asked again; the earlier one stays a version. */
  z.object({ type: z.literal('regenerate'), conversationId: z.string() }),
  /** `Previous version` / `Next version`: shows the version whose branch this is (`''`: the original). */
  z.object({ type: z.literal('switchVersion'), conversationId: z.string(), branchId: z.string().max(200) }),
  z.object({ type: z.literal('decide'), pausePointId: z.string(), decision: ShownDecision }),
  /** `Approve all` / `Decline all`: each card decided on its own (engine.decideBatch), under one batch id. */
  // `viewHashes[i]` binds the decision on `pausePointIds[i]` to the view the dialog showed of it (decision-view.ts).
  z.object({ type: z.literal('decideBatch'), pausePointIds: z.array(z.string()).min(1).max(MAX_BATCH), decision: BatchDecision, viewHashes: z.array(ViewHash).min(1).max(MAX_BATCH) }).refine((intent) => intent.viewHashes.length === intent.pausePointIds.length, {
    message: 'Each card of a batch is decided on the view the dialog showed of it: one view hash per card.',
  }),
  z.object({ type: z.literal('stop'), conversationId: z.string() }),
  /** Retry after an error, or Continue after an interruption or the step limit. */
  z.object({ type: z.literal('retry'), conversationId: z.string() }),
  z.object({ type: z.literal('createConversation'), title: z.string().max(200).optional() }),
  z.object({ type: z.literal('renameConversation'), conversationId: z.string(), title: z.string().min(1).max(200) }),
  z.object({ type: z.literal('deleteConversation'), conversationId: z.string() }),
  /** The conversation's own custom instructions; empty clears them. */
  z.object({ type: z.literal('setConversationInstructions'), conversationId: z.string(), instructions: Instructions }),
  /** Approval rules (Settings, card buttons): the engine fills a draft in and checks it. */
  z.object({ type: z.literal('addRule'), draft: ApprovalRuleDraft }),
  z.object({ type: z.literal('removeRule'), ruleId: z.string() }),
  /**
   * A card's "Allow in this conversation" / "Always allow": the rule is stored
   * first, then the call approved, so the loop the approval resumes already
   * sees the rule for the calls that follow.
   */
  z.object({ type: z.literal('approveWithRule'), pausePointId: z.string(), decision: ShownDecision, draft: ApprovalRuleDraft }),
  /** What a draft rule would have decided among the stored calls, before it is saved (nothing is stored). */
  z.object({ type: z.literal('previewRule'), draft: ApprovalRuleDraft }),
  /** Turns a dry-run rule on: it decides from the next call. */
  z.object({ type: z.literal('makeRuleActive'), ruleId: z.string() }),
  /** Turns on a rule restored disabled from a backup. */
  z.object({ type: z.literal('enableRule'), ruleId: z.string() }),
  /** Turns a rule off without removing it: it stays listed and applies to nothing until enabled. */
  z.object({ type: z.literal('disableRule'), ruleId: z.string() }),
  /** Suspends every allow rule while on. */
  z.object({ type: z.literal('setAskForEverything'), on: z.boolean() }),
  /** Whether cards offer "Always allow" for irreversible calls. */
  z.object({ type: z.literal('setAlwaysAllowIrreversible'), on: z.boolean() }),
  /**
   * The sidebar's `Search conversations` (src/search): the first `limit` conversations matching `query`,
   * newest first. A blank query finds nothing and gets the index ready (the field's focus sends one).
   */
  z.object({ type: z.literal('searchConversations'), query: z.string().max(500), limit: z.number().int().min(1).max(100) }),
  /**
   * MCP Apps: a `tools/call` a view sent (src/mcp/view-tool-call.ts). Answered once the call is decided and,
   * when approved, has run: that may be long after the 2-minute backstop other intents have (worker-client.ts).
   */
  z.object({ type: z.literal('callToolFromView'), ...ViewToolCall.shape }),
  /** Test connection: lists the endpoint's models with these (unsaved) settings. */
  z.object({
    type: z.literal('listModels'),
    provider: z.string(),
    baseUrl: z.string(),
    apiKey: z.string(),
    headers: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  }),
]);
export type Intent = z.infer<typeof Intent>;
/** An intent as the page sends it: fields with defaults (a rule draft's) may be left out; the worker's parse fills them in. */
export type IntentInput = z.input<typeof Intent>;

export { DecideResult } from '../engine/decision.ts';
export { BatchResult } from '../engine/batch-decision.ts';

export type IntentKind = Intent['type'];
/** The intent of one kind, as the worker reads it. */
export type IntentOf<K extends IntentKind> = Extract<Intent, { type: K }>;

/**
 * Keeps a per-intent map honest: one entry for every intent kind, and no
 * other key (an extra one would have to be `never`).
 */
type PerIntent<T extends Record<IntentKind, unknown> & Record<Exclude<keyof T, IntentKind>, never>> = T;

/**
 * What the worker answers to each intent. The host's handler for an intent
 * must return it (agent-host.ts, mcp-host.ts), and the page's client is typed
 * from it (agent-client.ts). `void` is sent as `null`.
 */
export type IntentResults = PerIntent<{
  mcpAdd: { serverId: string };
  mcpSetEnabled: void;
  mcpSetTrusted: void;
  mcpSetToolEnabled: void;
  mcpRemove: void;
  mcpBeginSignIn: SignInStart;
  mcpFinishSignIn: void;
  mcpSignOut: SignOutResult;
  mcpCancelTask: void;
  mcpSetShowViews: void;
  mcpReadView: ViewResource;
  syncTurnOn: SyncResult;
  syncTurnOff: void;
  syncAddDevice: PairingInvite;
  syncJoin: SyncResult;
  syncRemoveDevice: void;
  syncRenameDevice: void;
  syncRetry: void;
  syncPassphraseStrength: PassphraseStrength;
  syncSuggestPassphrase: SuggestedPassphrase;
  send: { conversationId: string };
  editMessage: void;
  regenerate: void;
  switchVersion: void;
  decide: DecideResult;
  decideBatch: BatchResult;
  stop: void;
  retry: void;
  createConversation: { conversationId: string };
  renameConversation: void;
  deleteConversation: void;
  setConversationInstructions: void;
  addRule: { ruleId: string };
  removeRule: void;
  approveWithRule: DecideResult;
  previewRule: RulePreview;
  makeRuleActive: void;
  enableRule: void;
  disableRule: void;
  setAskForEverything: void;
  setAlwaysAllowIrreversible: void;
  searchConversations: SearchResults;
  callToolFromView: ViewToolCallAnswer;
  listModels: string[];
}>;

/** A handler for each intent kind, returning that intent's declared result. */
export type IntentHandlers = { [K in IntentKind]: (intent: IntentOf<K>) => Promise<IntentResults[K]> };

export const WireError = z.object({ name: z.string(), message: z.string(), code: z.string().optional() });

export const Request = z.object({ id: z.number().int(), intent: Intent });
export type Request = z.infer<typeof Request>;

export const Response = z.discriminatedUnion('ok', [
  z.object({ id: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.object({ id: z.number().int(), ok: z.literal(false), error: WireError }),
]);
export type Response = z.infer<typeof Response>;

/** Unprompted news from the worker, for notifications, the app badge, and failures no record could hold. */
export const WorkerEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), tabId: z.string() }),
  z.object({ type: z.literal('approval_requested'), pausePointId: z.string(), conversationId: z.string(), title: z.string() }),
  /** A run failed and not even its error state could be stored (storage full): shown as an alert instead. */
  z.object({ type: z.literal('run_failed'), conversationId: z.string(), message: z.string() }),
]);
export type WorkerEvent = z.infer<typeof WorkerEvent>;
