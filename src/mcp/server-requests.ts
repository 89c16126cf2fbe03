import {
  ProtocolError,
  ProtocolErrorCode,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ModelMessage } from '../engine/model-port.ts';
import type { CallUsage, PausePoint, TaskInput } from '../engine/records/index.ts';
import type { ToolContext } from '../engine/tool-definition.ts';
import { elicitationForm } from './elicitation-form.ts';
import { codeBlock, codeSpan } from './markdown-literal.ts';
import type { McpServerRecord } from '../storage/records/mcp-server-record.ts';
import type { SessionEvents } from './mcp-session.ts';
import { serverLabel } from './mcp-tool.ts';
import { capAnswer, samplingDescription, samplingMessages } from './sampling-request.ts';

/** An approved sampling request as the sampler gets it: for which conversation, what to send, at most how long an answer. */
export interface SampleRequest {
  conversationId: string;
  messages: ModelMessage[];
  /** The server's cap, shown on the card; the sampler lowers it to the user's own, if lower. */
  maxTokens: number;
  signal: AbortSignal;
}

export interface SampleResult {
  text: string;
  model: string;
  finishReason: string;
  /** What the call used, when the endpoint said (stored on the conversation by the sampler). */
  usage?: CallUsage;
  /** The cap the call was sent with, when lower than the server's: the answer is held to it. */
  maxTokens?: number;
}

/**
 * One call to the user's configured model for an approved sampling request:
 * the worker's model port (the same one the engine uses), its usage stored on
 * the conversation it was made for and counted by its spending limits, its
 * answer at most the cap it was sent with. `limitNotice`, when given, says
 * whether sending the request would pass a spending limit, for its card.
 */
export interface Sampler {
  (request: SampleRequest): Promise<SampleResult>;
  limitNotice?(request: { conversationId: string; messages: ModelMessage[] }): Promise<string | null>;
}

/** A URL elicitation card's payload: the link the page opens when the user presses the card's button (see src/ui/cards/link-to-open.ts). */
export interface LinkPayload {
  openUrl: string;
}

/** The call a server's request belongs to, and the server as stored now. */
export interface Asker {
  context: ToolContext;
  server: McpServerRecord;
}

/** What the handlers need from the hub, for one server's session. */
export interface ServerRequestSource {
  /** The newest call running on this server (a server's question belongs to it), or null when none is. */
  asker(): Asker | null;
  /** Runs approved sampling requests; without it, sampling is refused. */
  sample?: Sampler;
}

export type ServerRequests = Pick<SessionEvents, 'onElicit' | 'onSample'>;

/**
 * What a server may ask of the client while one of its tools runs — a form,
 * a link to open, the user's model — each as a card in that call's
 * conversation. A request with no running call to belong to is refused.
 */
export function serverRequests(source: ServerRequestSource): ServerRequests {
  const asker = (what: string): Asker => {
    const found = source.asker();
    if (!found) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Pausepoint shows a server’s ${what} only while one of its tools is running.`);
    return found;
  };
  return {
    onElicit: async (params, _signal, taskInput) => (params.mode === 'url' ? elicitUrl(asker('requests'), params, taskInput) : elicitForm(asker('questions'), params, taskInput)),
    onSample: async (params, signal) => {
      const sample = source.sample;
      if (!sample) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'Pausepoint does not let MCP servers use the user’s model here: sampling is refused.');
      // No card for a request no model could answer.
      if (params.maxTokens < 1) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `maxTokens must be at least 1 (it is ${params.maxTokens}).`);
      return sampleOnce(asker('sampling requests'), sample, params, signal);
    },
  };
}

/** The line every card of a server's request opens with: who asks, from where. */
function asksLine({ server }: Asker, asks: string): string {
  const label = serverLabel(server);
  return `The MCP server ${codeSpan(label)} at ${codeSpan(server.url)} ${asks}, while one of its tools runs`;
}

/** An elicitation card's answer as the server reads it: Decline declines; a card that expires or is lost cancels. */
function declinedOrCancelled(answer: PausePoint): ElicitResult {
  return answer.status === 'resolved' && answer.resolution === 'decline' ? { action: 'decline' } : { action: 'cancel' };
}

/** A form elicitation: a `data_entry` card; Submit accepts with the form's content. */
async function elicitForm(asker: Asker, params: ElicitRequestFormParams, taskInput?: TaskInput): Promise<ElicitResult> {
  const form = elicitationForm(params.requestedSchema);
  const answer = await asker.context.ask({
    title: `${serverLabel(asker.server)} asks for information`,
    description: [
      `${asksLine(asker, 'asks')}:`,
      codeBlock(params.message),
      'What you submit goes to this server (and the assistant sees it). **Decline** to send nothing.',
    ].join('\n\n'),
    options: null,
    payload: form.payload,
    kind: 'data_entry',
    ...(taskInput ? { taskInput } : {}),
  });
  if (answer.status === 'resolved' && typeof answer.resolution === 'object' && answer.resolution !== null) {
    return { action: 'accept', content: form.toContent(answer.resolution as Record<string, unknown>) };
  }
  return declinedOrCancelled(answer);
}

/**
 * A URL-mode elicitation: an approval card that shows the whole URL, its
 * host set apart. Nothing opens unless the user presses the card's button,
 * which opens it from the page (the worker cannot) and answers `accept`
 * (consent to open, per the spec). The server learns nothing of what
 * happens at the link from us.
 */
async function elicitUrl(asker: Asker, params: ElicitRequestURLParams, taskInput?: TaskInput): Promise<ElicitResult> {
  const url = new URL(params.url);
  const payload: LinkPayload = { openUrl: url.href };
  const answer = await asker.context.ask({
    title: `${serverLabel(asker.server)} asks you to open a link`,
    description: [
      `${asksLine(asker, 'asks')}:`,
      codeBlock(params.message),
      `**Link:** ${codeSpan(url.href)}`,
      `**Host:** **${codeSpan(url.host)}**`,
      'Nothing opens unless you press **Open link**, which opens it in a new tab. **Decline** to tell the server no.',
    ].join('\n\n'),
    options: null,
    payload,
    kind: 'approval',
    ...(taskInput ? { taskInput } : {}),
  });
  if (answer.status === 'resolved' && answer.resolution === 'approve') return { action: 'accept' };
  return declinedOrCancelled(answer);
}

/** What a -32042 error carries: the links the server needs opened, as it sent them (untrusted: checked here). */
const UrlsRequired = z.object({
  elicitations: z.array(z.object({ mode: z.literal('url'), url: z.string(), message: z.string(), elicitationId: z.string() })).min(1),
});

/** At most this many links of one refusal become cards: a server cannot flood the conversation with them. */
const MAX_REQUIRED_URLS = 3;

/**
 * A tool call the server refused with MCP error -32042 ("URL elicitation
 * required": the user must open a link first, to sign in or consent there).
 * Each link becomes the same card as a URL-mode elicitation, asked while the
 * call is still running — nothing opens until the user presses Open link —
 * and the model is told the call did not run, and what the user did, so it
 * can call again once they are done. Returns null when the error is not one
 * (or names no http:/https: link): it is then reported as the server's error.
 */
export async function urlElicitationRequired(asker: Asker, error: unknown): Promise<Error | null> {
  if (!(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.UrlElicitationRequired) return null;
  const parsed = UrlsRequired.safeParse(error.data);
  if (!parsed.success) return null;
  const links = parsed.data.elicitations.filter(({ url }) => URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol)).slice(0, MAX_REQUIRED_URLS);
  if (links.length === 0) return null;
  const answers: string[] = [];
  for (const link of links) {
    const answer = await elicitUrl(asker, link);
    answers.push(answer.action === 'accept' ? `the user opened ${new URL(link.url).host}` : answer.action === 'decline' ? `the user declined to open ${new URL(link.url).host}` : `the link to ${new URL(link.url).host} went unanswered`);
  }
  return new Error(
    `Not run: ${serverLabel(asker.server)} needs the user to open a link first (shown to them on a card): ${answers.join('; ')}. If they finished there, the call can be tried again.`,
    { cause: error },
  );
}

/**
 * A sampling request: refused unless the user approves it on a card that
 * shows what would be sent. Approved, it is one call to the user's model;
 * the answer goes to the server only.
 */
async function sampleOnce(asker: Asker, sample: Sampler, params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult> {
  const { conversationId } = asker.context;
  const messages = samplingMessages(params);
  // Spending is an action: a request that would pass a limit says so on its card, whose approval decides it.
  const limitWarning = (await sample.limitNotice?.({ conversationId, messages })) ?? null;
  const answer = await asker.context.ask({
    title: `${serverLabel(asker.server)} asks to use your model`,
    description: samplingDescription(`${asksLine(asker, 'asks your model this')} (the server’s words, shown as they are):`, params, limitWarning),
    options: null,
    payload: null,
    kind: 'approval',
  });
  if (answer.status !== 'resolved' || answer.resolution !== 'approve') {
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'Sampling is refused: the user did not approve this request to use their model.');
  }
  try {
    const result = await sample({ conversationId, messages, maxTokens: params.maxTokens, signal: AbortSignal.any([signal, asker.context.signal]) });
    const capped = capAnswer(result.text, { completionTokens: result.usage?.completion, finishReason: result.finishReason }, Math.min(params.maxTokens, result.maxTokens ?? params.maxTokens));
    return {
      role: 'assistant',
      content: { type: 'text', text: capped.text },
      model: result.model,
      stopReason: capped.cut || result.finishReason === 'length' ? 'maxTokens' : 'endTurn',
    };
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `The user’s model failed to answer: ${error instanceof Error ? error.message : String(error)}`);
  }
}
