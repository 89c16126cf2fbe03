import type { AgentClient, IntentCall, SyncControl } from './agent-client.ts';
import type { McpCalls } from './mcp-calls.ts';
import type { OptionCalls } from './option-calls.ts';
import { AgentAbortError, AgentError } from './agent-error.ts';
import type { DecideResult, IntentInput, WorkerEvent } from './protocol.ts';
import { START_AGENT } from './start-agent.ts';
import { isObject, isString, readDecideResult, readResponse, readWorkerEvent } from './worker-guards.ts';


/** A backstop for a worker that never answers; a caller that gives up sooner aborts its signal. */
const REQUEST_TIMEOUT_MS = 120_000;

/** What the client needs of a worker (a fake one in tests). */
export interface AgentWorker {
  postMessage(message: { id: number; intent: IntentInput } | typeof START_AGENT): void;
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
    Object.assign(this, forwardTo(() => this.#loadOptions(), OPTION_CALLS));
    this.#worker.addEventListener('message', (event) => this.#receive(event.data));
    this.#worker.addEventListener('error', (event) => {
      const error = new AgentError('WorkerError', `The agent worker failed: ${event.message || 'it could not start'}`);
      for (const { reject } of this.#pending.values()) reject(error);
      this.#pending.clear();
    });
  }

  #started = false;

  /**
   * Tells the worker to start its agent now, if no intent has yet (agent.worker.ts): main.ts calls it once the
   * first screen is painted, so the agent's start does not slow the page's. Once is enough; later calls do nothing.
   */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#worker.postMessage(START_AGENT);
  }

  onEvent(listener: (event: WorkerEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  readonly send: IntentCall<'send'> = (conversationId, text, attachments, signal) =>
    this.#call({ type: 'send', conversationId, text, ...(attachments ? { attachments } : {}) }, readConversationId, signal);

  readonly decide: IntentCall<'decide'> = (pausePointId, decision, signal) =>
    this.#call({ type: 'decide', pausePointId, decision }, readDecision, signal);

  readonly stop: IntentCall<'stop'> = (conversationId, signal) => this.#call({ type: 'stop', conversationId }, ignore, signal);

  readonly retry: IntentCall<'retry'> = (conversationId, signal) => this.#call({ type: 'retry', conversationId }, ignore, signal);

  readonly createConversation: IntentCall<'createConversation'> = (title, signal) =>
    this.#call({ type: 'createConversation', title }, readConversationId, signal);

  readonly renameConversation: IntentCall<'renameConversation'> = (conversationId, title, signal) =>
    this.#call({ type: 'renameConversation', conversationId, title }, ignore, signal);

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

  readonly mcp: McpCalls = forwardTo(
    (): Promise<McpCalls> => this.#loadMcp(),
    ['add', 'setEnabled', 'setTrusted', 'setToolEnabled', 'remove', 'beginSignIn', 'finishSignIn', 'signOut', 'cancelTask', 'setShowViews', 'readView', 'callToolFromView'],
  );

  /**
   * MCP Apps: a view's tool call (view-calls.ts, loaded through mcp-calls.ts). It waits for the card's decision: no
   * backstop timeout. One more forwarded name rather than an arrow of its own: the start path's bytes (npm run size).
   */
  readonly callToolFromView: IntentCall<'callToolFromView'> = this.mcp.callToolFromView;

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

  readonly sync: SyncControl = forwardTo(() => this.#loadSync(), ['turnOn', 'turnOff', 'addDevice', 'join', 'removeDevice', 'renameDevice', 'retry', 'passphraseStrength', 'suggestPassphrase']);

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

  // Declared here, made in the constructor: one forwarder each (forwardTo), not a written-out arrow each on the start path.
  declare readonly decideBatch: OptionCalls['decideBatch'];
  declare readonly setConversationInstructions: OptionCalls['setConversationInstructions'];
  declare readonly addRule: OptionCalls['addRule'];
  declare readonly previewRule: OptionCalls['previewRule'];
  declare readonly makeRuleActive: OptionCalls['makeRuleActive'];
  declare readonly removeRule: OptionCalls['removeRule'];
  declare readonly enableRule: OptionCalls['enableRule'];
  declare readonly disableRule: OptionCalls['disableRule'];
  declare readonly setAlwaysAllowIrreversible: OptionCalls['setAlwaysAllowIrreversible'];
  declare readonly setAskForEverything: OptionCalls['setAskForEverything'];
  declare readonly listModels: OptionCalls['listModels'];
  declare readonly editMessage: OptionCalls['editMessage'];
  declare readonly regenerate: OptionCalls['regenerate'];
  declare readonly switchVersion: OptionCalls['switchVersion'];

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

/** The calls option-calls.ts makes, each forwarded to it once it is loaded. */
const OPTION_CALLS = [
  'decideBatch',
  'setConversationInstructions',
  'addRule',
  'previewRule',
  'makeRuleActive',
  'removeRule',
  'enableRule',
  'disableRule',
  'setAlwaysAllowIrreversible',
  'setAskForEverything',
  'listModels',
  'editMessage',
  'regenerate',
  'switchVersion',
] as const;

/**
 * An object whose methods `names` load the calls that make them (a chunk of
 * their own: sync-calls.ts, mcp-calls.ts, option-calls.ts) and call them with
 * the same arguments. Start-up pays for one function and the names, instead
 * of a written-out arrow per call (npm run size).
 */
function forwardTo<T extends object, const N extends readonly (keyof T)[]>(load: () => Promise<T>, names: N & EveryKeyOf<T, N>): T {
  type Method = (...args: unknown[]) => unknown;
  return Object.fromEntries(names.map((name) => [name, (...args: unknown[]) => load().then((calls) => (calls[name] as Method)(...args))])) as T;
}

/** `unknown` when `N` names every method of `T`; else `never`, so a forgotten one fails to type-check instead of being undefined. */
type EveryKeyOf<T, N extends readonly (keyof T)[]> = Exclude<keyof T, N[number]> extends never ? unknown : never;

/** For intents that answer nothing (`null` on the wire). */
const ignore = (): void => undefined;

/** For answers read elsewhere (sync-calls.ts, mcp-calls.ts, option-calls.ts). */
const same = (value: unknown): unknown => value;
