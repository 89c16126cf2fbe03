import type { Decision } from '../engine/decision.ts';
import type { ApprovalRuleDraft } from '../engine/records/index.ts';
import type { AgentClient } from './agent-client.ts';
import type { McpControl } from './mcp-control.ts';
import type { DecideResult, IntentInput, Response, WorkerEvent } from './protocol.ts';

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

const REQUEST_TIMEOUT_MS = 120_000;

/**
 * The page's side of the worker: sends intents, matches responses by id, and
 * passes worker events on. Every message from the worker is checked before use
 * — nothing is trusted by cast — but by the hand-written guards below rather
 * than the protocol's zod schemas: the page would otherwise load zod (a quarter
 * of its JavaScript) only to read messages from its own worker. The worker,
 * which receives what the page sends, still parses every intent with zod.
 * `protocol-guards.test.ts` checks the guards against the schemas.
 */
export class WorkerClient implements AgentClient {
  readonly tabId = crypto.randomUUID();
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  readonly #listeners = new Set<(event: WorkerEvent) => void>();
  #nextId = 1;

  constructor() {
    this.#worker = new Worker(new URL('./agent.worker.ts', import.meta.url), { type: 'module', name: this.tabId });
    this.#worker.addEventListener('message', (event: MessageEvent<unknown>) => this.#receive(event.data));
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

  async send(conversationId: string | null, text: string) {
    return readConversationId(await this.#call({ type: 'send', conversationId, text }));
  }

  async decide(pausePointId: string, decision: Decision) {
    const value = await this.#call({ type: 'decide', pausePointId, decision });
    const result = readDecideResult(value);
    if (!result) throw new AgentError('ProtocolError', 'The agent worker answered a decision with something unreadable.');
    return result;
  }

  async stop(conversationId: string) {
    await this.#call({ type: 'stop', conversationId });
  }

  async retry(conversationId: string) {
    await this.#call({ type: 'retry', conversationId });
  }

  async createConversation(title?: string) {
    return readConversationId(await this.#call({ type: 'createConversation', title }));
  }

  async renameConversation(conversationId: string, title: string) {
    await this.#call({ type: 'renameConversation', conversationId, title });
  }

  async deleteConversation(conversationId: string) {
    await this.#call({ type: 'deleteConversation', conversationId });
  }

  readonly mcp: McpControl = {
    add: async (draft) => {
      const value = await this.#call({ type: 'mcpAdd', ...draft });
      if (isObject(value) && isString(value.serverId)) return { serverId: value.serverId };
      throw new AgentError('ProtocolError', 'The agent worker did not say which server it added.');
    },
    setEnabled: async (serverId, enabled) => void (await this.#call({ type: 'mcpSetEnabled', serverId, enabled })),
    setTrusted: async (serverId, trusted) => void (await this.#call({ type: 'mcpSetTrusted', serverId, trusted })),
    setToolEnabled: async (serverId, toolName, enabled) => void (await this.#call({ type: 'mcpSetToolEnabled', serverId, toolName, enabled })),
    remove: async (serverId) => void (await this.#call({ type: 'mcpRemove', serverId })),
    beginSignIn: async (serverId, redirectUrl) => {
      const value = await this.#call({ type: 'mcpSignInStart', serverId, redirectUrl });
      if (isObject(value) && value.kind === 'authorized') return null;
      if (isObject(value) && value.kind === 'redirect' && isString(value.authorizationUrl) && isString(value.state)) {
        return { authorizationUrl: value.authorizationUrl, state: value.state };
      }
      throw new AgentError('ProtocolError', 'The agent worker did not say where to sign in.');
    },
    finishSignIn: async (serverId, code, state) => void (await this.#call({ type: 'mcpSignInFinish', serverId, code, state })),
    signOut: async (serverId) => {
      const value = await this.#call({ type: 'mcpSignOut', serverId });
      if (isObject(value) && isString(value.revoked)) return { revoked: value.revoked, ...(isString(value.reason) ? { reason: value.reason } : {}) };
      throw new AgentError('ProtocolError', 'The agent worker did not say what Sign out did.');
    },
  };

  async addRule(draft: ApprovalRuleDraft) {
    const value = await this.#call({ type: 'addRule', draft });
    if (isObject(value) && isString(value.ruleId)) return { ruleId: value.ruleId };
    throw new AgentError('ProtocolError', 'The agent worker did not say which rule it made.');
  }

  async approveWithRule(pausePointId: string, decision: Decision, draft: ApprovalRuleDraft) {
    const result = readDecideResult(await this.#call({ type: 'approveWithRule', pausePointId, decision, draft }));
    if (!result) throw new AgentError('ProtocolError', 'The agent worker answered a decision with something unreadable.');
    return result;
  }

  async removeRule(ruleId: string) {
    await this.#call({ type: 'removeRule', ruleId });
  }

  async enableRule(ruleId: string) {
    await this.#call({ type: 'enableRule', ruleId });
  }

  async setAlwaysAllowIrreversible(on: boolean) {
    await this.#call({ type: 'setAlwaysAllowIrreversible', on });
  }

  async setAskForEverything(on: boolean) {
    await this.#call({ type: 'setAskForEverything', on });
  }

  async listModels(endpoint: { provider: string; baseUrl: string; apiKey: string }): Promise<string[]> {
    const models = await this.#call({ type: 'listModels', ...endpoint });
    return Array.isArray(models) ? models.filter((m): m is string => typeof m === 'string') : [];
  }

  #call(intent: IntentInput): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new AgentError('TimeoutError', 'The agent worker did not answer in time.'));
      }, REQUEST_TIMEOUT_MS);
      this.#pending.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.#worker.postMessage({ id, intent });
    });
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
    this.#pending.delete(response.id);
    if (response.ok) waiting.resolve(response.value);
    else waiting.reject(new AgentError(response.error.name, response.error.message, response.error.code));
  }
}

/* ── guards: what the protocol's schemas accept, checked by hand ─────────── */

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === 'string';

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
    case 'invalid':
      return isString(value.message) ? { outcome: 'invalid', message: value.message } : null;
    case 'already_decided': {
      if (!PAUSE_STATUSES.has(value.status)) return null;
      const status = value.status as Extract<DecideResult, { outcome: 'already_decided' }>['status'];
      if (value.decidedBy === undefined) return { outcome: 'already_decided', status };
      const by = value.decidedBy;
      if (!isObject(by) || !isString(by.tabId) || !isString(by.deviceId) || !isString(by.label)) return null;
      return { outcome: 'already_decided', status, decidedBy: { tabId: by.tabId, deviceId: by.deviceId, label: by.label } };
    }
    default:
      return null;
  }
}

function readConversationId(value: unknown): { conversationId: string } {
  if (isObject(value) && isString(value.conversationId)) return { conversationId: value.conversationId };
  throw new AgentError('ProtocolError', 'The agent worker did not say which conversation it used.');
}
