import type { IntentInput, IntentKind, IntentResults, McpIntent, SyncIntent, WorkerEvent } from './protocol.ts';

/**
 * The order in which the page's call for each intent takes that intent's
 * fields (`'fields'`: one argument holding them all). Everything else about a
 * call — its arguments' types and what it resolves with — comes from the
 * protocol (protocol.ts: the intents' schemas and `IntentResults`).
 */
type CallArguments = EveryIntent<{
  mcpAdd: 'fields';
  mcpSetEnabled: ['serverId', 'enabled'];
  mcpSetTrusted: ['serverId', 'trusted'];
  mcpSetToolEnabled: ['serverId', 'toolName', 'enabled'];
  mcpRemove: ['serverId'];
  mcpBeginSignIn: ['serverId', 'redirectUrl'];
  mcpFinishSignIn: ['serverId', 'code', 'state', 'iss'];
  mcpSignOut: ['serverId'];
  mcpCancelTask: ['conversationId', 'toolCallId'];
  mcpSetShowViews: ['serverId', 'on'];
  mcpReadView: ['serverId', 'resourceUri'];
  syncTurnOn: 'fields';
  syncTurnOff: [];
  syncAddDevice: [];
  syncJoin: 'fields';
  syncRemoveDevice: ['deviceId'];
  syncRenameDevice: ['name'];
  syncRetry: [];
  syncPassphraseStrength: ['passphrase', 'userInputs'];
  syncSuggestPassphrase: [];
  send: ['conversationId', 'text', 'attachments'?];
  editMessage: ['conversationId', 'messageId', 'text', 'keep'?];
  regenerate: ['conversationId'];
  switchVersion: ['conversationId', 'branchId'];
  decide: ['pausePointId', 'decision'];
  decideBatch: ['pausePointIds', 'decision', 'viewHashes'];
  stop: ['conversationId'];
  retry: ['conversationId'];
  createConversation: ['title'?];
  renameConversation: ['conversationId', 'title'];
  deleteConversation: ['conversationId'];
  setConversationInstructions: ['conversationId', 'instructions'];
  addRule: ['draft'];
  removeRule: ['ruleId'];
  approveWithRule: ['pausePointId', 'decision', 'draft'];
  previewRule: ['draft'];
  makeRuleActive: ['ruleId'];
  enableRule: ['ruleId'];
  disableRule: ['ruleId'];
  setAskForEverything: ['on'];
  setAlwaysAllowIrreversible: ['on'];
  searchConversations: ['query', 'limit'];
  callToolFromView: 'fields';
  listModels: 'fields';
}>;

/** Checks `CallArguments`: an entry for every intent, naming only that intent's fields. */
type EveryIntent<T extends { [K in IntentKind]: 'fields' | readonly (keyof IntentFields<K> | undefined)[] }> = T;

/** An intent's fields as the page gives them (those with defaults may be left out), without its `type`. */
type IntentFields<K extends IntentKind> = Omit<Extract<IntentInput, { type: K }>, 'type'>;

type Arguments<K extends IntentKind> = CallArguments[K] extends 'fields' ? [fields: IntentFields<K>] : Named<IntentFields<K>, CallArguments[K]>;

/** The types of `fields` named in `names`, as a tuple (a mapped type over a type parameter keeps a tuple a tuple). */
type Named<Fields, Names> = { [I in keyof Names]: Fields[Names[I] & keyof Fields] };

/**
 * The page's call for one intent: the intent's fields as arguments, then an
 * optional signal. Aborting it rejects the call with `AgentAbortError`
 * (worker-client.ts); the worker may still finish the intent.
 */
export type IntentCall<K extends IntentKind> = (...args: [...Extract<Arguments<K>, readonly unknown[]>, signal?: AbortSignal]) => Promise<IntentResults[K]>;

type Calls<K extends IntentKind> = { readonly [P in K]: IntentCall<P> };

type McpKind = McpIntent['type'];
/** `mcpSetEnabled` → `setEnabled`. */
type McpMethod<K extends McpKind> = K extends `mcp${infer Rest}` ? Uncapitalize<Rest> : never;

/** What Settings › MCP servers asks of the agent; the servers themselves are read from IndexedDB. */
export type McpControl = { readonly [K in McpKind as McpMethod<K>]: IntentCall<K> };

type SyncKind = SyncIntent['type'];
/** `syncTurnOn` → `turnOn`. */
type SyncMethod<K extends SyncKind> = K extends `sync${infer Rest}` ? Uncapitalize<Rest> : never;

/** What Settings › Devices and the Join dialog ask of the agent; the status and the devices are read from IndexedDB. */
export type SyncControl = { readonly [K in SyncKind as SyncMethod<K>]: IntentCall<K> };

/**
 * What the UI can ask of the agent: one call per intent (`listModels` reaches
 * the UI as `testConnection` instead, the MCP intents as `mcp`, the sync ones as `sync`). Every
 * change to agent state goes through here as an intent; what the user sees
 * comes back through live queries on IndexedDB, never through these return
 * values (so other tabs see the same).
 */
export type AgentClient = Calls<Exclude<IntentKind, McpKind | SyncKind | 'listModels' | 'callToolFromView'>> & {
  /** This tab's id, as recorded in `decidedBy.tabId` when this tab decides and as `owner` of the loops it runs. */
  readonly tabId: string;
  /**
   * Unprompted news from the agent (an approval was requested). Optional: a
   * client without it simply raises no alerts. Returns the unsubscribe.
   */
  onEvent?(listener: (event: WorkerEvent) => void): () => void;
  /** MCP servers (Settings › MCP servers). Optional: a client without it shows no MCP section. */
  readonly mcp?: McpControl;
  /** Sync across devices (Settings › Devices, the Join dialog). Optional: a client without it shows no Devices section. */
  readonly sync?: SyncControl;
  /**
   * MCP Apps: a view's `tools/call`, put through the engine like the model's (src/mcp/view-tool-call.ts).
   * Optional: a client without it hosts no views. Resolves once the call is decided (and has run if approved).
   */
  readonly callToolFromView?: IntentCall<'callToolFromView'>;
};

/**
 * Sends one intent and resolves with the worker's answer as it came (WorkerClient's own call, its timeout and abort
 * included). `timeoutMs` 0: no backstop, for an answer that waits for a person (a view's tool call).
 */
export type SendIntent = (intent: IntentInput, signal?: AbortSignal, timeoutMs?: number) => Promise<unknown>;
