import type { AgentClient, IntentCall, McpControl, SyncControl } from './agent-client.ts';
import type { BatchResult, DecideResult, IntentInput, Response, WorkerEvent } from './protocol.ts';
import type { RulePreview } from '../engine/preview-rule.ts';

/** An error from the worker, rebuilt on the page with its name and code. */
export class AgentError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The page gave up waiting for a call: its signal was aborted. The worker may still finish the intent. */
export class AgentAbortError extends AgentError {
  constructor() {
    super('AbortError', 'The request to the agent was cancelled.');
  }
}

/** A backstop for a worker that never answers; a caller that gives up sooner aborts its signal. */
const REQUEST_TIMEOUT_MS = 120_000;

/** What the client needs of a worker (a fake one in tests). */
export interface AgentWorker {
  postMessage(message: { id: number; intent: IntentInput }): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
}

const startWorker = (name: string): AgentWorker => new Worker(new URL('./agent.worker.ts', import.meta.url), { type: 'module', name });

/**
 * The page's side of the worker: sends intents, matches responses by id, and
 * passes worker events on. Every message from the worker is checked before use
 * — nothing is trusted by cast — but by the hand-written guards below rather
 * than the protocol's zod schemas: the page would otherwise load zod (a quarter
 * of its JavaScript) only to read messages from its own worker. The worker,
 * which receives what the page sends, still parses every intent with zod.
 * `worker-client.test.ts` checks the guards against the schemas.
 */
export class WorkerClient implements AgentClient {
  readonly tabId = crypto.randomUUID();
  readonly #worker: AgentWorker;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  readonly #listeners = new Set<(event: WorkerEvent) => void>();
  #nextId = 1;

  /** `start` is given the worker's name, this tab's id. */
  constructor(start: (name: string) => AgentWorker = startWorker) {
    this.#worker = start(this.tabId);
    this.#worker.addEventListener('message', (event) => this.#receive(event.data));
    this.#worker.addEventListener('error', (event) => {
      const error = new AgentError('WorkerError', `The agent worker failed: ${event.message || 'it could not start'}`);
      for (const { reject } of this.#pending.values()) reject(error);
      this.#pending.clear();
    });
  }

  onEvent(listener: (event: WorkerEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  readonly send: IntentCall<'send'> = (conversationId, text, signal) =>
    this.#call({ type: 'send', conversationId, text }, readConversationId, signal);

  readonly decide: IntentCall<'decide'> = (pausePointId, decision, signal) =>
    this.#call({ type: 'decide', pausePointId, decision }, readDecision, signal);

  readonly decideBatch: IntentCall<'decideBatch'> = (pausePointIds, decision, signal) =>
    this.#call({ type: 'decideBatch', pausePointIds, decision }, readBatch, signal);

  readonly stop: IntentCall<'stop'> = (conversationId, signal) => this.#call({ type: 'stop', conversationId }, ignore, signal);

  readonly retry: IntentCall<'retry'> = (conversationId, signal) => this.#call({ type: 'retry', conversationId }, ignore, signal);

  readonly createConversation: IntentCall<'createConversation'> = (title, signal) =>
    this.#call({ type: 'createConversation', title }, readConversationId, signal);

  readonly renameConversation: IntentCall<'renameConversation'> = (conversationId, title, signal) =>
    this.#call({ type: 'renameConversation', conversationId, title }, ignore, signal);
  readonly setConversationInstructions: IntentCall<'setConversationInstructions'> = (conversationId, instructions, signal) =>
    this.#call({ type: 'setConversationInstructions', conversationId, instructions }, ignore, signal);

  readonly deleteConversation: IntentCall<'deleteConversation'> = (conversationId, signal) =>
    this.#call({ type: 'deleteConversation', conversationId }, ignore, signal);

  // MCP's calls and the guards that read their answers come on the first MCP call (mcp-calls.ts), as sync's do.
  #mcpCalls: Promise<McpControl> | undefined;
  #loadMcp(): Promise<McpControl> {
    return (this.#mcpCalls ??= import('./mcp-calls.ts').then(
      ({ mcpCalls }) => mcpCalls((intent, signal) => this.#call(intent, same, signal)),
      (error: unknown) => {
        this.#mcpCalls = undefined;
        throw error;
      },
    ));
  }

  readonly mcp: McpControl = {
    add: (draft, signal) => this.#loadMcp().then((mcp) => mcp.add(draft, signal)),
    setEnabled: (serverId, enabled, signal) => this.#loadMcp().then((mcp) => mcp.setEnabled(serverId, enabled, signal)),
    setTrusted: (serverId, trusted, signal) => this.#loadMcp().then((mcp) => mcp.setTrusted(serverId, trusted, signal)),
    setToolEnabled: (serverId, toolName, enabled, signal) => this.#loadMcp().then((mcp) => mcp.setToolEnabled(serverId, toolName, enabled, signal)),
    remove: (serverId, signal) => this.#loadMcp().then((mcp) => mcp.remove(serverId, signal)),
    beginSignIn: (serverId, redirectUrl, signal) => this.#loadMcp().then((mcp) => mcp.beginSignIn(serverId, redirectUrl, signal)),
    finishSignIn: (serverId, code, state, iss, signal) => this.#loadMcp().then((mcp) => mcp.finishSignIn(serverId, code, state, iss, signal)),
    signOut: (serverId, signal) => this.#loadMcp().then((mcp) => mcp.signOut(serverId, signal)),
  };

  // Sync's calls and the zod schemas that read their answers come on the first sync call (sync-calls.ts): start-up loads neither.
  #syncCalls: Promise<SyncControl> | undefined;
  #loadSync(): Promise<SyncControl> {
    return (this.#syncCalls ??= import('./sync-calls.ts').then(
      ({ syncCalls }) => syncCalls((intent, signal) => this.#call(intent, same, signal)),
      (error: unknown) => {
        this.#syncCalls = undefined;
        throw error;
      },
    ));
  }

  readonly sync: SyncControl = {
    turnOn: (input, signal) => this.#loadSync().then((sync) => sync.turnOn(input, signal)),
    turnOff: (signal) => this.#loadSync().then((sync) => sync.turnOff(signal)),
    addDevice: (signal) => this.#loadSync().then((sync) => sync.addDevice(signal)),
    join: (input, signal) => this.#loadSync().then((sync) => sync.join(input, signal)),
    removeDevice: (deviceId, signal) => this.#loadSync().then((sync) => sync.removeDevice(deviceId, signal)),
    renameDevice: (name, signal) => this.#loadSync().then((sync) => sync.renameDevice(name, signal)),
    retry: (signal) => this.#loadSync().then((sync) => sync.retry(signal)),
  };

  // Like sync's: the search call and its answer's schema come with the first search (search-calls.ts).
  #searchCall: Promise<IntentCall<'searchConversations'>> | undefined;
  readonly searchConversations: IntentCall<'searchConversations'> = (query, limit, signal) =>
    (this.#searchCall ??= import('./search-calls.ts').then(
      ({ searchCall }) => searchCall((intent, s) => this.#call(intent, same, s)),
      (error: unknown) => {
        this.#searchCall = undefined;
        throw error;
      },
    )).then((search) => search(query, limit, signal));

  readonly addRule: IntentCall<'addRule'> = (draft, signal) => this.#call({ type: 'addRule', draft }, readRuleId, signal);

  readonly approveWithRule: IntentCall<'approveWithRule'> = (pausePointId, decision, draft, signal) =>
    this.#call({ type: 'approveWithRule', pausePointId, decision, draft }, readDecision, signal);

  readonly previewRule: IntentCall<'previewRule'> = (draft, signal) => this.#call({ type: 'previewRule', draft }, readPreview, signal);

  readonly makeRuleActive: IntentCall<'makeRuleActive'> = (ruleId, signal) => this.#call({ type: 'makeRuleActive', ruleId }, ignore, signal);

  readonly removeRule: IntentCall<'removeRule'> = (ruleId, signal) => this.#call({ type: 'removeRule', ruleId }, ignore, signal);

  readonly enableRule: IntentCall<'enableRule'> = (ruleId, signal) => this.#call({ type: 'enableRule', ruleId }, ignore, signal);

  readonly disableRule: IntentCall<'disableRule'> = (ruleId, signal) => this.#call({ type: 'disableRule', ruleId }, ignore, signal);

  readonly setAlwaysAllowIrreversible: IntentCall<'setAlwaysAllowIrreversible'> = (on, signal) =>
    this.#call({ type: 'setAlwaysAllowIrreversible', on }, ignore, signal);

  readonly setAskForEverything: IntentCall<'setAskForEverything'> = (on, signal) => this.#call({ type: 'setAskForEverything', on }, ignore, signal);

  readonly listModels: IntentCall<'listModels'> = (endpoint, signal) => this.#call({ type: 'listModels', ...endpoint }, readModels, signal);

  /**
   * Sends one intent and reads its answer with `read`. Settles once: with the
   * answer, the worker's error, a timeout, or the signal's abort — and the
   * pending entry goes with whichever comes first, so a late answer is dropped.
   */
  #call<T>(intent: IntentInput, read: (value: unknown) => T, signal: AbortSignal | undefined): Promise<T> {
    if (signal?.aborted) return Promise.reject(new AgentAbortError());
    const id = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        this.#pending.delete(id);
      };
      const abort = () => (done(), reject(new AgentAbortError()));
      const timer = setTimeout(() => (done(), reject(new AgentError('TimeoutError', 'The agent worker did not answer in time.'))), REQUEST_TIMEOUT_MS);
      signal?.addEventListener('abort', abort, { once: true });
      this.#pending.set(id, {
        resolve: (value) => (done(), resolve(value)),
        reject: (error) => (done(), reject(error)),
      });
      this.#worker.postMessage({ id, intent });
    }).then(read);
  }

  #receive(data: unknown): void {
    const event = readWorkerEvent(data);
    if (event) {
      for (const listener of this.#listeners) listener(event);
      return;
    }
    const response = readResponse(data);
    if (!response) {
      console.error('Pausepoint: unreadable message from the agent worker');
      return;
    }
    const waiting = this.#pending.get(response.id);
    if (!waiting) return;
    if (response.ok) waiting.resolve(response.value);
    else waiting.reject(new AgentError(response.error.name, response.error.message, response.error.code));
  }
}

/* ── guards: what the protocol's schemas accept, checked by hand ─────────── */

type Fields = Record<string, unknown>;

export function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const isString = (value: unknown): value is string => typeof value === 'string';

export function readWorkerEvent(data: unknown): WorkerEvent | null {
  if (!isObject(data)) return null;
  if (data.type === 'ready' && isString(data.tabId)) return { type: 'ready', tabId: data.tabId };
  if (data.type === 'approval_requested' && isString(data.pausePointId) && isString(data.conversationId) && isString(data.title)) {
    return { type: 'approval_requested', pausePointId: data.pausePointId, conversationId: data.conversationId, title: data.title };
  }
  if (data.type === 'run_failed' && isString(data.conversationId) && isString(data.message)) {
    return { type: 'run_failed', conversationId: data.conversationId, message: data.message };
  }
  return null;
}

export function readResponse(data: unknown): Response | null {
  if (!isObject(data) || !Number.isSafeInteger(data.id)) return null;
  const id = data.id as number;
  if (data.ok === true) return 'value' in data ? { id, ok: true, value: data.value } : null;
  if (data.ok !== false || !isObject(data.error)) return null;
  const { name, message, code } = data.error;
  if (!isString(name) || !isString(message) || (code !== undefined && !isString(code))) return null;
  return { id, ok: false, error: code === undefined ? { name, message } : { name, message, code } };
}

const PAUSE_STATUSES: ReadonlySet<unknown> = new Set(['pending', 'resolved', 'expired']);

export function readDecideResult(value: unknown): DecideResult | null {
  if (!isObject(value)) return null;
  switch (value.outcome) {
    case 'decided':
      return { outcome: 'decided' };
    case 'not_found':
      return { outcome: 'not_found' };
    case 'expired':
      return { outcome: 'expired' };
    case 'sent':
      return isString(value.owner) ? { outcome: 'sent', owner: value.owner } : null;
    case 'queued':
      return { outcome: 'queued' };
    case 'invalid':
      return isString(value.message) ? { outcome: 'invalid', message: value.message } : null;
    case 'already_decided': {
      if (!PAUSE_STATUSES.has(value.status)) return null;
      const status = value.status as Extract<DecideResult, { outcome: 'already_decided' }>['status'];
      if (value.decidedBy === undefined) return { outcome: 'already_decided', status };
      const by = value.decidedBy;
      if (!isObject(by) || !isString(by.tabId) || !isString(by.deviceId) || !isString(by.label)) return null;
      const via = by.via === 'sync' ? ({ via: 'sync' } as const) : {};
      return { outcome: 'already_decided', status, decidedBy: { tabId: by.tabId, deviceId: by.deviceId, label: by.label, ...via } };
    }
    default:
      return null;
  }
}

function readConversationId(value: unknown): { conversationId: string } {
  if (isObject(value) && isString(value.conversationId)) return { conversationId: value.conversationId };
  throw new AgentError('ProtocolError', 'The agent worker did not say which conversation it used.');
}

function readDecision(value: unknown): DecideResult {
  const result = readDecideResult(value);
  if (!result) throw new AgentError('ProtocolError', 'The agent worker answered a decision with something unreadable.');
  return result;
}

/** A batch's answer: each card's own result, read by the same guard as a single decision's (a failure: its message). */
export function readBatchResult(value: unknown): BatchResult | null {
  if (!isObject(value) || !isString(value.batchId) || !Array.isArray(value.cards)) return null;
  const cards: BatchResult['cards'] = [];
  for (const card of value.cards as unknown[]) {
    if (!isObject(card) || !isString(card.pausePointId) || !isObject(card.result)) return null;
    const { result } = card;
    const read = result.outcome === 'failed' ? (isString(result.message) ? { outcome: 'failed' as const, message: result.message } : null) : readDecideResult(result);
    if (!read) return null;
    cards.push({ pausePointId: card.pausePointId, result: read });
  }
  return { batchId: value.batchId, cards };
}

function readBatch(value: unknown): BatchResult {
  const result = readBatchResult(value);
  if (!result) throw new AgentError('ProtocolError', 'The agent worker answered a batch of decisions with something unreadable.');
  return result;
}

function readRuleId(value: unknown): { ruleId: string } {
  if (isObject(value) && isString(value.ruleId)) return { ruleId: value.ruleId };
  throw new AgentError('ProtocolError', 'The agent worker did not say which rule it made.');
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

function readPreview(value: unknown): RulePreview {
  if (isObject(value) && isCount(value.decided) && isCount(value.of) && Array.isArray(value.examples)) {
    const examples = value.examples.flatMap((call: unknown) =>
      isObject(call) && typeof call.at === 'number' && isString(call.conversationId) && isString(call.toolCallId) && isString(call.toolName)
        ? [{ at: call.at, conversationId: call.conversationId, toolCallId: call.toolCallId, toolName: call.toolName, args: call.args }]
        : [],
    );
    return { decided: value.decided, of: value.of, examples };
  }
  throw new AgentError('ProtocolError', 'The agent worker answered a rule preview with something unreadable.');
}

const readModels = (value: unknown): string[] => (Array.isArray(value) ? value.filter(isString) : []);

/** For intents that answer nothing (`null` on the wire). */
const ignore = (): void => undefined;

/** For answers read elsewhere (sync-calls.ts, mcp-calls.ts). */
const same = (value: unknown): unknown => value;
