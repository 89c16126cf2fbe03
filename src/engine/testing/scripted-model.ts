import { ModelError, type ModelErrorKind } from '../errors.ts';
import type { ModelPort, ModelRequest, ModelResult } from '../model-port.ts';
import type { CallUsage } from '../records/index.ts';

export type ScriptedCall = { name: string; args: unknown; id?: string };

/** One scripted model response: text and/or tool calls, or a failure. */
export type ScriptedTurn =
  | { text?: string; calls?: ScriptedCall[]; rawArguments?: string; usage?: CallUsage }
  | { fail: ModelError; partialText?: string }
  | ((request: ModelRequest) => ModelResult | Promise<ModelResult>);

/** A model at the port: answers from a queue, records every request. */
export class ScriptedModel implements ModelPort {
  readonly requests: ModelRequest[] = [];
  readonly #queue: ScriptedTurn[] = [];
  #callCounter = 0;

  constructor(...turns: ScriptedTurn[]) {
    this.#queue.push(...turns);
  }

  push(...turns: ScriptedTurn[]): this {
    this.#queue.push(...turns);
    return this;
  }

  get remaining(): number {
    return this.#queue.length;
  }

  async complete(request: ModelRequest): Promise<ModelResult> {
    this.requests.push(request);
    request.signal.throwIfAborted();
    const turn = this.#queue.shift();
    if (!turn) throw new Error(`ScriptedModel: no turn scripted for request #${this.requests.length}`);
    if (typeof turn === 'function') return turn(request);
    if ('fail' in turn) {
      if (turn.partialText) request.onText(turn.partialText);
      throw turn.fail;
    }
    const text = turn.text ?? '';
    // Stream the text in a few pieces, as a real endpoint would.
    for (let i = 0; i < text.length; i += 16) request.onText(text.slice(i, i + 16));
    const toolCalls = (turn.calls ?? []).map((call) => ({
      id: call.id ?? `call_${++this.#callCounter}`,
      name: call.name,
      arguments: turn.rawArguments ?? JSON.stringify(call.args),
    }));
    return { content: text, toolCalls, finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop', ...(turn.usage ? { usage: turn.usage } : {}) };
  }

  /** The last request's messages, for asserting what the model saw. */
  lastMessages() {
    return this.requests.at(-1)?.messages ?? [];
  }
}

export const modelError = (kind: ModelErrorKind, message: string = kind, status?: number, retryAfterMs?: number) =>
  new ModelError(kind, message, status, retryAfterMs);
