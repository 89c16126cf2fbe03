import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isCallToolResult,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  isSpecType,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  type CallToolResult,
  type ClientCapabilities,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import { OutcomeUnknown } from '../engine/errors.ts';
import type { SessionEvents } from './mcp-session.ts';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How often a task is asked about: the server's pollIntervalMs, within these bounds. */
const MIN_POLL_MS = 200;
const MAX_POLL_MS = 5_000;
/** Rounds of questions one call or task may ask before it is given up. */
const MAX_INPUT_ROUNDS = 8;

const InputRequests = z.record(z.string(), z.looseObject({ method: z.string(), params: z.looseObject({}).optional() }));
const Answer = z.discriminatedUnion('resultType', [
  z.looseObject({ resultType: z.literal('task'), taskId: z.string().min(1).max(500) }),
  z.looseObject({ resultType: z.literal('input_required'), inputRequests: InputRequests.optional(), requestState: z.string().optional() }),
  z.looseObject({ resultType: z.literal('complete') }),
]);
const DetailedTask = z.looseObject({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  pollIntervalMs: z.number().optional(),
  inputRequests: InputRequests.optional(),
  result: z.looseObject({}).optional(),
  error: z.looseObject({ message: z.string().optional() }).optional(),
});

/**
 * MCP's Tasks extension on the 2026-07-28 revision (SEP-2663): a `tools/call`
 * that declares the extension may be answered with a task handle, then
 * `tasks/get` until it ends, `tasks/update` for its questions, `tasks/cancel`.
 *
 * Written here because the SDK has no runtime for it on 2026-07-28: its
 * codecs refuse a `resultType: "task"` answer and `tasks/*` requests to a
 * modern server (SdkErrorCode.MethodNotSupportedByProtocolVersion). These
 * requests go through the session's own transport (its headers, its OAuth,
 * its Mcp-Method and Mcp-Name headers) with the request envelope framed as
 * the SDK frames its own, and their answers are taken off the transport
 * before the SDK's client sees them.
 */
export class TaskWire {
  readonly #transport: Transport;
  readonly #meta: Record<string, unknown>;
  readonly #events: SessionEvents;
  readonly #waiting = new Map<string, (message: JSONRPCMessage) => void>();
  #next = 0;

  constructor(transport: Transport, protocolVersion: string, clientInfo: { name: string; version: string }, capabilities: ClientCapabilities, events: SessionEvents) {
    this.#transport = transport;
    this.#events = events;
    this.#meta = {
      [PROTOCOL_VERSION_META_KEY]: protocolVersion,
      [CLIENT_INFO_META_KEY]: clientInfo,
      [CLIENT_CAPABILITIES_META_KEY]: { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } },
    };
    const theirs = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const id = 'id' in message ? message.id : undefined;
      const waiter = typeof id === 'string' ? this.#waiting.get(id) : undefined;
      if (waiter) waiter(message);
      else theirs?.(message, extra);
    };
  }

  /**
   * A tool call that the server may take as a task: its answer, after any
   * questions it asks first (an `input_required` answer, retried with the
   * user's answers). `onTask` is awaited with the task's id before anything
   * else is sent; then the task is followed to its end.
   */
  async callTool(name: string, args: Record<string, unknown>, onTask: (taskId: string) => Promise<void>, signal: AbortSignal): Promise<CallToolResult> {
    let params: Record<string, unknown> = { name, arguments: args };
    for (let round = 0; round <= MAX_INPUT_ROUNDS; round++) {
      const answer = Answer.parse(await this.#request('tools/call', params, signal));
      if (answer.resultType === 'task') {
        await onTask(answer.taskId);
        return this.follow(answer.taskId, signal);
      }
      if (answer.resultType === 'complete') return toolResult(answer);
      const inputResponses = await this.#answer(answer.inputRequests ?? {}, signal);
      params = { name, arguments: args, inputResponses, ...(answer.requestState !== undefined ? { requestState: answer.requestState } : {}) };
    }
    throw new Error(`the server asked more than ${MAX_INPUT_ROUNDS} rounds of questions; the call was given up.`);
  }

  /** Waits for a task's end (answering its questions) and returns its result; throws OutcomeUnknown when the server no longer knows it. */
  async follow(taskId: string, signal: AbortSignal): Promise<CallToolResult> {
    const answered = new Set<string>();
    let rounds = 0;
    for (;;) {
      const task = DetailedTask.parse(await this.#request('tasks/get', { taskId }, signal).catch((error: unknown) => {
        // -32602 is the spec's answer for a task the server does not know (expired, purged, or a restarted server's).
        if (error instanceof ProtocolError && error.code === -32602) throw new OutcomeUnknown(`the server no longer knows its task ${taskId}: ${error.message}`, { cause: error });
        throw error;
      }));
      switch (task.status) {
        case 'completed':
          return toolResult(task.result ?? {});
        case 'failed':
          throw new Error(`the server's task failed: ${task.error?.message ?? task.statusMessage ?? 'no reason given'}`);
        case 'cancelled':
          throw new Error(`Cancelled: the server cancelled its task${task.statusMessage ? ` (${task.statusMessage})` : ''}; it may have done part of the work.`);
        case 'input_required': {
          // The same question comes again on every poll until answered: each key is asked once.
          const open = Object.fromEntries(Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key)));
          if (Object.keys(open).length > 0) {
            if (++rounds > MAX_INPUT_ROUNDS) throw new Error(`the server's task asked more than ${MAX_INPUT_ROUNDS} rounds of questions; it was given up.`);
            const inputResponses = await this.#answer(open, signal, taskId);
            for (const key of Object.keys(open)) answered.add(key);
            await this.#request('tasks/update', { taskId, inputResponses }, signal);
            continue;
          }
          break;
        }
        case 'working':
          break;
      }
      await sleep(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollIntervalMs ?? 1_000)), signal);
    }
  }

  async cancel(taskId: string, signal: AbortSignal): Promise<void> {
    await this.#request('tasks/cancel', { taskId }, signal);
  }

  /**
   * The user's answers to a server's questions, each through the card the same question would get as a request (server-requests.ts).
   * A task's (`taskId`) are its cards' for good: the next run that follows the task after a reload answers with the card already asked.
   */
  async #answer(requests: z.infer<typeof InputRequests>, signal: AbortSignal, taskId?: string): Promise<Record<string, unknown>> {
    const answers: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests)) {
      const params = request.params ?? {};
      // A form elicitation may leave its mode out (it is the default).
      const asked = params.mode === undefined ? { ...params, mode: 'form' } : params;
      if (isSpecType.ElicitRequestURLParams(asked) && !/^https?:$/.test(new URL(asked.url).protocol)) {
        // As newClient refuses it for a request: only http: and https: links reach a card.
        throw new Error(`Pausepoint opens only http: and https: links for a server; ${new URL(asked.url).protocol} is refused.`);
      }
      if (request.method === 'elicitation/create' && (isSpecType.ElicitRequestFormParams(asked) || isSpecType.ElicitRequestURLParams(asked))) {
        answers[key] = await this.#events.onElicit(asked, signal, taskId === undefined ? undefined : { taskId, key });
      } else {
        throw new Error(`the server's task asked ${request.method} in a form Pausepoint does not answer.`);
      }
    }
    return answers;
  }

  async #request(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    signal.throwIfAborted();
    const id = `pausepoint-task-${++this.#next}`;
    const answered = new Promise<JSONRPCMessage>((resolve, reject) => {
      this.#waiting.set(id, resolve);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    // A send that fails is thrown from there; a drop after it must not reject this unawaited.
    answered.catch(() => undefined);
    try {
      await this.#transport.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: this.#meta } });
      const message = await answered;
      if (isJSONRPCErrorResponse(message)) throw new ProtocolError(message.error.code, message.error.message, message.error.data);
      if (isJSONRPCResultResponse(message)) return message.result;
      throw new Error(`the server answered ${method} with something that is no answer.`);
    } finally {
      this.#waiting.delete(id);
    }
  }
}

function toolResult(value: unknown): CallToolResult {
  const { resultType: _type, ...rest } = z.looseObject({ resultType: z.string().optional() }).parse(value);
  const result = { content: [], ...rest };
  if (!isCallToolResult(result)) throw new Error('the server’s task result is not a tool result.');
  return result;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
