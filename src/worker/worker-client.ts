import type { AgentClient, IntentCall, McpControl, SyncControl } from './agent-client.ts';
import type { McpCalls } from './mcp-calls.ts';
import type { OptionCalls } from './option-calls.ts';
import { AgentAbortError, AgentError } from './agent-error.ts';
import type { DecideResult, IntentInput, WorkerEvent } from './protocol.ts';
import { isObject, isString, readDecideResult, readResponse, readWorkerEvent } from './worker-guards.ts';


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

  readonly send: IntentCall<'send'> = (conversationId, text, attachments, signal) =>
    this.#call({ type: 'send', conversationId, text, ...(attachments ? { attachments } : {}) }, readConversationId, signal);

  readonly decide: IntentCall<'decide'> = (pausePointId, decision, signal) =>
    this.#call({ type: 'decide', pausePointId, decision }, readDecision, signal);

  readonly decideBatch: IntentCall<'decideBatch'> = (...args) => this.#loadOptions().then((calls) => calls.decideBatch(...args));

  readonly stop: IntentCall<'stop'> = (conversationId, signal) => this.#call({ type: 'stop', conversationId }, ignore, signal);

  readonly retry: IntentCall<'retry'> = (conversationId, signal) => this.#call({ type: 'retry', conversationId }, ignore, signal);

  readonly createConversation: IntentCall<'createConversation'> = (title, signal) =>
    this.#call({ type: 'createConversation', title }, readConversationId, signal);

  readonly renameConversation: IntentCall<'renameConversation'> = (conversationId, title, signal) =>
    this.#call({ type: 'renameConversation', conversationId, title }, ignore, signal);
  readonly setConversationInstructions: IntentCall<'setConversationInstructions'> = (...args) =>
    this.#loadOptions().then((calls) => calls.setConversationInstructions(...args));

  readonly deleteConversation: IntentCall<'deleteConversation'> = (conversationId, signal) =>
    this.#call({ type: 'deleteConversation', conversationId }, ignore, signal);

  // MCP's calls and the guards that read their answers come on the first MCP call (mcp-calls.ts), as sync's do.
  #mcpCalls: Promise<McpCalls> | undefined;
  #loadMcp(): Promise<McpCalls> {
    return (this.#mcpCalls ??= import('./mcp-calls.ts').then(
      ({ mcpCalls }) => mcpCalls((intent, signal, timeoutMs) => this.#call(intent, same, signal, timeoutMs)),
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

  /** MCP Apps: a view's tool call (view-calls.ts, loaded through mcp-calls.ts). It waits for the card's decision: no backstop timeout. */
  readonly callToolFromView: IntentCall<'callToolFromView'> = (input, signal) => this.#loadMcp().then((mcp) => mcp.callToolFromView(input, signal));

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

  readonly approveWithRule: IntentCall<'approveWithRule'> = (pausePointId, decision, draft, signal) =>
    this.#call({ type: 'approveWithRule', pausePointId, decision, draft }, readDecision, signal);

  // The calls only Settings, a rule's form or preview, the batch dialog and a conversation's options make come
  // with the first of them (option-calls.ts), as MCP's and sync's do: a card's own decision stays here.
  #optionCalls: Promise<OptionCalls> | undefined;
  #loadOptions(): Promise<OptionCalls> {
    return (this.#optionCalls ??= import('./option-calls.ts').then(
      ({ optionCalls }) => optionCalls((intent, signal) => this.#call(intent, same, signal)),
      (error: unknown) => {
        this.#optionCalls = undefined;
        throw error;
      },
    ));
  }

  readonly addRule: IntentCall<'addRule'> = (...args) => this.#loadOptions().then((calls) => calls.addRule(...args));
  readonly previewRule: IntentCall<'previewRule'> = (...args) => this.#loadOptions().then((calls) => calls.previewRule(...args));
  readonly makeRuleActive: IntentCall<'makeRuleActive'> = (...args) => this.#loadOptions().then((calls) => calls.makeRuleActive(...args));
  readonly removeRule: IntentCall<'removeRule'> = (...args) => this.#loadOptions().then((calls) => calls.removeRule(...args));
  readonly enableRule: IntentCall<'enableRule'> = (...args) => this.#loadOptions().then((calls) => calls.enableRule(...args));
  readonly disableRule: IntentCall<'disableRule'> = (...args) => this.#loadOptions().then((calls) => calls.disableRule(...args));
  readonly setAlwaysAllowIrreversible: IntentCall<'setAlwaysAllowIrreversible'> = (...args) =>
    this.#loadOptions().then((calls) => calls.setAlwaysAllowIrreversible(...args));
  readonly setAskForEverything: IntentCall<'setAskForEverything'> = (...args) =>
    this.#loadOptions().then((calls) => calls.setAskForEverything(...args));
  readonly listModels: IntentCall<'listModels'> = (...args) => this.#loadOptions().then((calls) => calls.listModels(...args));
  readonly editMessage: IntentCall<'editMessage'> = (...args) => this.#loadOptions().then((calls) => calls.editMessage(...args));
  readonly regenerate: IntentCall<'regenerate'> = (...args) => this.#loadOptions().then((calls) => calls.regenerate(...args));
  readonly switchVersion: IntentCall<'switchVersion'> = (...args) => this.#loadOptions().then((calls) => calls.switchVersion(...args));

  /**
   * Sends one intent and reads its answer with `read`. Settles once: with the
   * answer, the worker's error, a timeout, or the signal's abort — and the
   * pending entry goes with whichever comes first, so a late answer is dropped.
   * `timeoutMs` 0 waits without a backstop (an answer that waits for a person).
   */
  #call<T>(intent: IntentInput, read: (value: unknown) => T, signal: AbortSignal | undefined, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
    if (signal?.aborted) return Promise.reject(new AgentAbortError());
    const id = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        this.#pending.delete(id);
      };
      const abort = () => (done(), reject(new AgentAbortError()));
      const timer = timeoutMs && setTimeout(() => (done(), reject(new AgentError('TimeoutError', 'The agent worker did not answer in time.'))), timeoutMs);
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

function readConversationId(value: unknown): { conversationId: string } {
  if (isObject(value) && isString(value.conversationId)) return { conversationId: value.conversationId };
  throw new AgentError('ProtocolError', 'The agent worker did not say which conversation it used.');
}

function readDecision(value: unknown): DecideResult {
  const result = readDecideResult(value);
  if (!result) throw new AgentError('ProtocolError', 'The agent worker answered a decision with something unreadable.');
  return result;
}

/** For intents that answer nothing (`null` on the wire). */
const ignore = (): void => undefined;

/** For answers read elsewhere (sync-calls.ts, mcp-calls.ts, option-calls.ts). */
const same = (value: unknown): unknown => value;
