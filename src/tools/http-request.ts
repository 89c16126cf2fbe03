import { z } from 'zod';
import { HTTP_TOKEN } from '../common/http-token.ts';
import { OutcomeUnknown } from '../engine/errors.ts';
import { httpMethodRisk } from '../engine/risk-label.ts';
import type { PauseRequest, ToolContext, ToolDefinition } from '../engine/tool-definition.ts';
import { httpGate, isRead, requestLines } from './http-gate.ts';
import { codeSpan } from './markdown-literal.ts';
import { readCappedText, type CappedText } from './read-capped-text.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** RFC 9110 `token`: what a header name may be made of. */

/**
 * Why a header cannot be sent as given, in words the model can act on; null
 * when it can. Checked here rather than left to fetch, which would refuse it
 * with a TypeError that reads like a network failure, and because a line break
 * in a value shown on the card could pass for the card's own text.
 */
function headerProblem(name: string, value: string): string | null {
  if (!HTTP_TOKEN.test(name)) {
    return `${JSON.stringify(name)} is not a valid header name: use only letters, digits and ! # $ % & ' * + - . ^ _ \` | ~ (no spaces, colons, line breaks or other control characters)`;
  }
  if (/[\r\n]/.test(value)) return `the value of ${name} contains a line break (CR or LF); a header value must be a single line, so remove it`;
  const control = /\p{Cc}/u.exec(value);
  if (control) return `the value of ${name} contains the control character ${codePoint(control[0])}; remove it`;
  // Headers are byte strings: fetch refuses anything past U+00FF.
  const wide = [...value].find((char) => (char.codePointAt(0) ?? 0) > 0xff);
  if (wide) return `the value of ${name} contains “${wide}” (${codePoint(wide)}), which browsers cannot send in a header; use ASCII (percent-encoded if the server expects that)`;
  return null;
}

const codePoint = (char: string): string => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

const hasCredentials = (url: string): boolean => URL.canParse(url) && (new URL(url).username !== '' || new URL(url).password !== '');

export const HttpRequestInput = z
  .object({
    method: z.enum(METHODS).describe('The HTTP method. Every request, GET and HEAD included, waits for the user’s approval unless one of their rules allows it.'),
    url: z
      // Normalised, so the URL on the card, in the ledger and on the wire is one and the same string.
      .url({ protocol: /^https?$/, normalize: true })
      .refine((url) => !hasCredentials(url), 'the URL must not contain a user name or password (browsers refuse to send them); remove them')
      .describe('The full http:// or https:// URL to request.'),
    headers: z
      .record(z.string(), z.string())
      .superRefine((headers, ctx) => {
        for (const [name, value] of Object.entries(headers)) {
          const problem = headerProblem(name, value);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }
      })
      .optional()
      .describe('Request headers, e.g. {"content-type": "application/json"}. Each value is a single line of text.'),
    body: z.string().optional().describe('The request body as text (JSON goes in as a string). Not allowed with GET or HEAD.'),
  })
  // fetch itself refuses this with a TypeError that would read like a network failure.
  .refine((args) => args.body === undefined || !isRead(args.method), {
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
/** At most this much of a body is read at all, whatever its size: enough for the characters above in any script. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Any HTTP request, straight from the browser, each one asked for first (see
 * `httpGate`). Reads are safe to retry after an interruption; anything else
 * whose fate the browser cannot tell (a timeout, a response CORS hides, a Stop
 * while in flight) ends as `OutcomeUnknown`, never as a failure the model would retry.
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
      'Every request, GET and HEAD included, is shown to the user for approval first, unless one of their rules allows it (for example reads from an origin they trust); ' +
      'a declined request is not sent. A redirect is followed only for GET and HEAD, and only once the user approves following it (browsers do not reveal where a redirect points). ' +
      'Sites that do not allow cross-origin requests (CORS) cannot be reached.',
    input: HttpRequestInput,
    gate: httpGate,
    safeToRetry: (args) => isRead(args.method),
    irreversible: (args) => args.method === 'DELETE',
    risk: (args) => httpMethodRisk(args.method),
    async execute(args, context) {
      const host = new URL(args.url).host;
      const init: RequestInit = {
        method: args.method,
        headers: args.headers,
        body: args.body,
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        // A redirect would send the request on to a URL nobody approved (and a
        // browser never says which): the first request follows none, a read
        // follows one only after the person said so (`followIfApproved`).
        redirect: 'manual',
      };
      // A request the browser will not build never leaves: say so plainly, rather than as a network error.
      try {
        new Request(args.url, init);
      } catch (error) {
        return `Request not sent: the browser refused to build it (${error instanceof Error ? error.message : String(error)}).`;
      }
      context.signal.throwIfAborted();

      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await send(args.url, { ...init, signal: AbortSignal.any([context.signal, timeout]) });
      } catch (error) {
        if (isRead(args.method)) return readFailure(error, { stopped: context.signal.aborted, timedOut: timeout.aborted, host, timeoutMs });
        throw lostRequest(error, { stopped: context.signal.aborted, timedOut: timeout.aborted, host, timeoutMs, method: args.method });
      }

      // The server answered: from here on what happened is known.
      if (response.type === 'opaqueredirect') {
        return isRead(args.method) ? followIfApproved(args, init, context, { send, timeoutMs }) : describeRedirect(args.method, host);
      }
      return readResponse(args.method, response, () => ({ stopped: context.signal.aborted, timedOut: timeout.aborted, host, timeoutMs }));
    },
  };
}

/** The response as the model reads it; a read whose body broke off is a failed read (`interruption` says why, once it has). */
async function readResponse(method: string, response: Response, interruption: () => Interruption): Promise<string> {
  const body: CappedText = method === 'HEAD' ? { text: '', ending: 'complete' } : await readCappedText(response.body, MAX_RESPONSE_BYTES);
  if (body.ending === 'failed' && isRead(method)) return readFailure(body.error, interruption());
  return describeResponse(response, body);
}

interface Sender {
  send: typeof fetch;
  timeoutMs: number;
}

/**
 * A read answered with a redirect. Where it points, a browser never tells
 * (`redirect: 'manual'` gives an opaque response, with no status and no
 * Location; see whatwg/fetch#601), and it may be any site: Google's
 * `/url?q=…` sends a read that a rule allowed there on to whatever the query
 * names. So no rule can decide it, and nothing goes there unless the person
 * approves a card of its own; only then is the read sent again, and the
 * browser left to follow the redirect.
 */
async function followIfApproved(args: HttpRequestArgs, init: RequestInit, context: ToolContext, { send, timeoutMs }: Sender): Promise<string> {
  const host = new URL(args.url).host;
  const answer = await context.ask(redirectQuestion(args));
  if (answer.status !== 'resolved' || answer.resolution !== 'approve') {
    const why = answer.status === 'resolved' ? 'the user declined to follow it' : 'the user did not decide in time';
    return (
      `Not followed: ${host} answered the ${args.method} with a redirect, and ${why}, so nothing was sent on. ` +
      '(Browsers do not reveal where a redirect points.) If you know the address it leads to, request that address instead, or ask the user.'
    );
  }
  context.signal.throwIfAborted();
  const timeout = AbortSignal.timeout(timeoutMs);
  const interruption = (): Interruption => ({ stopped: context.signal.aborted, timedOut: timeout.aborted, host, timeoutMs });
  let response: Response;
  try {
    response = await send(args.url, { ...init, redirect: 'follow', signal: AbortSignal.any([context.signal, timeout]) });
  } catch (error) {
    return readFailure(error, interruption());
  }
  return readResponse(args.method, response, interruption);
}

/** The redirect's card: the request that would be sent again, and why its destination cannot be shown. */
function redirectQuestion(args: HttpRequestArgs): PauseRequest {
  const url = new URL(args.url);
  return {
    title: `Follow the redirect from ${url.host}?`,
    description: [
      `${codeSpan(url.host)} answered this ${args.method} with a redirect. **Where it points is not known:** browsers do not reveal a redirect's address ` +
        'before following it, so it may be this site or any other, and the address may carry anything, this request’s query included. ' +
        'Your approval rules cannot decide it for the same reason.',
      ...requestLines(args),
      `**Approve** sends this ${args.method} to ${codeSpan(url.host)} again and lets the browser follow the redirect wherever it leads; the model reads the last answer and where it came from. ` +
        '**Decline** sends nothing more.',
    ].join('\n\n'),
    options: null,
    // Nothing to edit: the only thing to decide is whether to follow.
    payload: null,
    kind: 'approval',
  };
}

interface Interruption {
  stopped: boolean;
  timedOut: boolean;
  host: string;
  timeoutMs: number;
}

/** A read that failed was a read: nothing changed, and trying again is harmless. */
function readFailure(error: unknown, { stopped, timedOut, host, timeoutMs }: Interruption): string {
  // A stopped run is not a failed request: let the engine see the abort.
  if (stopped) throw error;
  if (timedOut) return `Request failed: no complete response from ${host} within ${timeoutMs / 1000} s.`;
  // fetch rejects with a bare TypeError for DNS, refused connections and CORS alike; the browser hides which.
  if (error instanceof TypeError) {
    return (
      'Request failed: the server could not be reached or refused a cross-origin request (CORS). ' +
      `Browsers do not say which. Check the URL, or use another service that allows requests from web pages. (${error.message})`
    );
  }
  throw error;
}

/**
 * A changing request that left and got no answer we may read: it may have
 * been acted on. Only the user can say whether to run it again.
 */
function lostRequest(error: unknown, { stopped, timedOut, host, timeoutMs, method }: Interruption & { method: string }): unknown {
  const mayHaveLanded = `The ${method} to ${host} may have reached the server and been acted on; whether it was is not known.`;
  if (stopped) return new OutcomeUnknown(`Stopped while the request was in flight. ${mayHaveLanded}`, { cause: error });
  if (timedOut) return new OutcomeUnknown(`No response within ${timeoutMs / 1000} s. ${mayHaveLanded}`, { cause: error });
  if (error instanceof TypeError) {
    return new OutcomeUnknown(
      'The browser reported a network failure or hid the response (CORS), and does not say whether the request was sent. ' +
        `${mayHaveLanded} (${error.message})`,
      { cause: error },
    );
  }
  return error;
}

function describeRedirect(method: string, host: string): string {
  return (
    `The server answered with a redirect, which was not followed: ${host} received the ${method} and pointed elsewhere ` +
    '(the browser does not reveal where, nor the status). Redirects are followed for GET and HEAD only, once the user approves. ' +
    'A redirect after a change usually means the server accepted it; do not send it again without asking the user.'
  );
}

function describeResponse(response: Response, body: CappedText): string {
  const head = [`HTTP ${response.status} ${response.statusText}`.trim(), `content-type: ${response.headers.get('content-type') ?? '(none)'}`];
  if (response.redirected && response.url !== '') head.push(`redirected to: ${response.url}`);
  const { text } = body;
  const shown = text.length > MAX_RESPONSE_CHARS ? text.slice(0, MAX_RESPONSE_CHARS) : text;
  const notes: string[] = [];
  if (body.ending === 'complete' && text.length > MAX_RESPONSE_CHARS) {
    notes.push(`[response truncated: ${MAX_RESPONSE_CHARS} of ${text.length} characters shown]`);
  } else if (body.ending === 'capped') {
    notes.push(`[response truncated: ${shown.length} characters shown; the body is longer than ${MAX_RESPONSE_BYTES / 1024} KiB and was not read to the end]`);
  } else if (body.ending === 'failed') {
    notes.push(`[the response body was cut off after ${text.length} characters: ${reasonOf(body.error)}]`);
  }
  return `${head.join('\n')}\n\n${[shown, ...notes].join('\n')}`;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) return 'the request was stopped or timed out while reading it';
  return error instanceof Error ? error.message : String(error);
}
