import { isRecord } from './is-record.ts';
import type { Reply, ScriptedTokens, ScriptedToolCall } from './reply.ts';

/**
 * Checks a reply that arrived over the control API. In-process callers get the
 * `Reply` type from the compiler; HTTP callers (benchmarks) get this instead, so a
 * typo fails at enqueue time with a message rather than as a confusing reply later.
 */
export function parseReply(value: unknown, where = 'reply'): Reply {
  if (!isRecord(value)) throw new TypeError(`${where}: expected an object`);
  const fault = value['fault'];
  switch (fault) {
    case undefined:
      return {
        content: optionalString(value, 'content', where),
        toolCalls: optionalToolCalls(value['toolCalls'], `${where}.toolCalls`),
        finishReason: optionalString(value, 'finishReason', where),
        chunkSize: optionalNumber(value, 'chunkSize', where, 1),
        chunkDelayMs: optionalNumber(value, 'chunkDelayMs', where, 0),
        usage: optionalBoolean(value, 'usage', where),
        tokens: optionalTokens(value['tokens'], `${where}.tokens`),
      };
    case 'status': {
      const status = optionalNumber(value, 'status', where, 100);
      if (status === undefined || status > 599) throw new TypeError(`${where}.status: expected an HTTP status`);
      return {
        fault,
        status,
        retryAfter: optionalNumber(value, 'retryAfter', where, 0),
        message: optionalString(value, 'message', where),
      };
    }
    case 'drop':
      return {
        fault,
        content: optionalString(value, 'content', where),
        afterChunks: optionalNumber(value, 'afterChunks', where, 0),
      };
    case 'hang':
      return { fault };
    case 'slow-headers': {
      const delayMs = optionalNumber(value, 'delayMs', where, 0);
      if (delayMs === undefined) throw new TypeError(`${where}.delayMs: required`);
      return { fault, delayMs, then: parseReply(value['then'], `${where}.then`) };
    }
    default:
      throw new TypeError(`${where}.fault: unknown fault ${JSON.stringify(fault)}`);
  }
}

/** Accepts one reply or an array of them, as POST /_control/enqueue does. */
export function parseReplies(value: unknown): Reply[] {
  return Array.isArray(value) ? value.map((item, i) => parseReply(item, `reply[${i}]`)) : [parseReply(value)];
}

function optionalToolCalls(value: unknown, where: string): ScriptedToolCall[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new TypeError(`${where}: expected an array`);
  return value.map((call, i): ScriptedToolCall => {
    const at = `${where}[${i}]`;
    if (!isRecord(call)) throw new TypeError(`${at}: expected an object`);
    const name = optionalString(call, 'name', at);
    if (name === undefined) throw new TypeError(`${at}.name: required`);
    const args = call['arguments'];
    if (typeof args !== 'string' && !isRecord(args) && !Array.isArray(args)) {
      throw new TypeError(`${at}.arguments: expected a string or an object`);
    }
    return { id: optionalString(call, 'id', at), name, arguments: args };
  });
}

function optionalTokens(value: unknown, where: string): ScriptedTokens | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw new TypeError(`${where}: expected an object`);
  const prompt = optionalNumber(value, 'prompt', where, 0);
  const completion = optionalNumber(value, 'completion', where, 0);
  if (prompt === undefined || completion === undefined) throw new TypeError(`${where}: prompt and completion are required`);
  return { prompt, completion, cached: optionalNumber(value, 'cached', where, 0), reasoning: optionalNumber(value, 'reasoning', where, 0) };
}

function optionalString(record: Record<string, unknown>, key: string, where: string): string | undefined {
  const value = record[key];
  if (value === undefined || typeof value === 'string') return value;
  throw new TypeError(`${where}.${key}: expected a string`);
}

function optionalBoolean(record: Record<string, unknown>, key: string, where: string): boolean | undefined {
  const value = record[key];
  if (value === undefined || typeof value === 'boolean') return value;
  throw new TypeError(`${where}.${key}: expected a boolean`);
}

function optionalNumber(record: Record<string, unknown>, key: string, where: string, min: number): number | undefined {
  const value = record[key];
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= min) return value;
  throw new TypeError(`${where}.${key}: expected a number >= ${min}`);
}
