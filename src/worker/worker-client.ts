import type { Decision } from '../engine/decision.ts';
import type { AgentClient } from '../ui/agent-client.ts';
import { DecideResult, Response, WorkerEvent, type Intent } from './protocol.ts';

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
 * passes worker events on. Every message from the worker is parsed with the
 * protocol's schemas; nothing is trusted by cast.
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
    return (await this.#call({ type: 'send', conversationId, text })) as { conversationId: string };
  }

  async decide(pausePointId: string, decision: Decision) {
    return DecideResult.parse(await this.#call({ type: 'decide', pausePointId, decision }));
  }

  async stop(conversationId: string) {
    await this.#call({ type: 'stop', conversationId });
  }

  async retry(conversationId: string) {
    await this.#call({ type: 'retry', conversationId });
  }

  async createConversation(title?: string) {
    return (await this.#call({ type: 'createConversation', title })) as { conversationId: string };
  }

  async renameConversation(conversationId: string, title: string) {
    await this.#call({ type: 'renameConversation', conversationId, title });
  }

  async deleteConversation(conversationId: string) {
    await this.#call({ type: 'deleteConversation', conversationId });
  }

  async listModels(endpoint: { provider: string; baseUrl: string; apiKey: string }): Promise<string[]> {
    const models = await this.#call({ type: 'listModels', ...endpoint });
    return Array.isArray(models) ? models.filter((m): m is string => typeof m === 'string') : [];
  }

  #call(intent: Intent): Promise<unknown> {
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
    const event = WorkerEvent.safeParse(data);
    if (event.success) {
      for (const listener of this.#listeners) listener(event.data);
      return;
    }
    const response = Response.safeParse(data);
    if (!response.success) {
      console.error('Pausepoint: unreadable message from the agent worker', response.error);
      return;
    }
    const waiting = this.#pending.get(response.data.id);
    if (!waiting) return;
    this.#pending.delete(response.data.id);
    if (response.data.ok) waiting.resolve(response.data.value);
    else waiting.reject(new AgentError(response.data.error.name, response.data.error.message, response.data.error.code));
  }
}
