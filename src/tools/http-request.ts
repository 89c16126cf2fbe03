import { z } from 'zod';
import type { GateQuestion, ToolDefinition } from '../engine/ports.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const HttpRequestInput = z
  .object({
    method: z.enum(METHODS).describe('The HTTP method. GET and HEAD run at once; every other method asks the user first.'),
    url: z.url({ protocol: /^https?$/ }).describe('The full http:// or https:// URL to request.'),
    headers: z.record(z.string(), z.string()).optional().describe('Request headers, e.g. {"content-type": "application/json"}.'),
    body: z.string().optional().describe('The request body as text (JSON goes in as a string). Not allowed with GET or HEAD.'),
  })
  // fetch itself refuses this with a TypeError that would read like a network failure.
  .refine((args) => args.body === undefined || (args.method !== 'GET' && args.method !== 'HEAD'), {
    message: 'GET and HEAD requests cannot have a body',
    path: ['body'],
  });
export type HttpRequestArgs = z.infer<typeof HttpRequestInput>;

export interface HttpRequestToolOptions {
  /** Defaults to the global fetch, looked up at call time. */
  fetch?: typeof fetch;
  /** Defaults to 15 s. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** The model reads the response; more than this would crowd its context. */
const MAX_RESPONSE_CHARS = 8_000;
const MAX_BODY_PREVIEW = 1_000;

/**
 * Any HTTP request, straight from the browser. Reading is free; anything that
 * can change something elsewhere (POST, PUT, PATCH, DELETE) waits for the user.
 *
 * The tool never sees the user's model API key: it is not in its arguments,
 * options or context, so it cannot forward it anywhere. Cookies are not sent
 * either (`credentials: 'omit'`): the model must not act as the user on other sites.
 */
export function createHttpRequestTool(options: HttpRequestToolOptions = {}): ToolDefinition<typeof HttpRequestInput> {
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return {
    name: 'http_request',
    description:
      'Make an HTTP request from the user’s browser and read the response (status, content type, and up to 8,000 characters of body). ' +
      'GET and HEAD run immediately; POST, PUT, PATCH and DELETE are shown to the user for approval first. ' +
      'Sites that do not allow cross-origin requests (CORS) cannot be reached.',
    input: HttpRequestInput,
    gate: httpGate,
    async execute(args, context) {
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        const response = await send(args.url, {
          method: args.method,
          headers: args.headers,
          body: args.body,
          signal: AbortSignal.any([context.signal, timeout]),
          credentials: 'omit',
          referrerPolicy: 'no-referrer',
        });
        const text = args.method === 'HEAD' ? '' : await response.text();
        return describeResponse(response, text);
      } catch (error) {
        // A stopped run is not a failed request: let the engine see the abort.
        if (context.signal.aborted) throw error;
        if (timeout.aborted) return `Request failed: no complete response from ${hostOf(args.url)} within ${timeoutMs / 1000} s.`;
        // fetch rejects with a bare TypeError for DNS, refused connections and CORS alike; the browser hides which.
        if (error instanceof TypeError) {
          return (
            'Request failed: the server could not be reached or refused a cross-origin request (CORS). ' +
            `Browsers do not say which. Check the URL, or use another service that allows requests from web pages. (${error.message})`
          );
        }
        throw error;
      }
    },
  };
}

/** Reading runs freely; every other method asks first, per call. */
export function httpGate(args: HttpRequestArgs): GateQuestion | null {
  if (args.method === 'GET' || args.method === 'HEAD') return null;
  const headers = Object.entries(args.headers ?? {});
  const lines = [
    `**Method:** ${args.method}`,
    `**URL:** ${codeSpan(args.url)}`,
    headers.length === 0 ? '**Headers:** none' : `**Headers:**\n${headers.map(([name, value]) => `- ${codeSpan(`${name}: ${value}`)}`).join('\n')}`,
    args.body === undefined ? '**Body:** none' : `**Body** (${args.body.length.toLocaleString('en')} characters):\n\n${codeBlock(preview(args.body))}`,
    'This sends a request to a server outside Pausepoint; what it changes there may not be reversible.',
  ];
  return { title: `${args.method} to ${hostOf(args.url)}`, description: lines.join('\n\n') };
}

function describeResponse(response: Response, text: string): string {
  const status = `HTTP ${response.status} ${response.statusText}`.trim();
  const contentType = `content-type: ${response.headers.get('content-type') ?? '(none)'}`;
  const body =
    text.length > MAX_RESPONSE_CHARS
      ? `${text.slice(0, MAX_RESPONSE_CHARS)}\n[response truncated: ${MAX_RESPONSE_CHARS} of ${text.length} characters shown]`
      : text;
  return `${status}\n${contentType}\n\n${body}`;
}

function hostOf(url: string): string {
  return new URL(url).host;
}

function preview(body: string): string {
  return body.length > MAX_BODY_PREVIEW ? `${body.slice(0, MAX_BODY_PREVIEW)}\n… (${body.length - MAX_BODY_PREVIEW} more characters)` : body;
}

/** A fence longer than any backtick run inside, so a body cannot break out of its block. */
function codeBlock(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}text\n${text}\n${fence}`;
}

function codeSpan(text: string): string {
  const ticks = '`'.repeat(longestBacktickRun(text) + 1);
  return `${ticks} ${text} ${ticks}`;
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}
