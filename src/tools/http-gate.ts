import type { GateQuestion } from '../engine/tool-definition.ts';
import { codeBlock, codeSpan } from './markdown-literal.ts';

/** The arguments the card describes (the tool's parsed input). */
export interface HttpCall {
  method: string;
  url: string;
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
}

const MAX_BODY_PREVIEW = 1_000;

export const isRead = (method: string): boolean => method === 'GET' || method === 'HEAD';

/**
 * Every request asks, reads included: a GET carries whatever its URL holds to
 * the server it names, so one the model was talked into by a page it read
 * could send the conversation anywhere. Calls run unasked only when one of the
 * user's approval rules allows them, and the engine decides that before this
 * gate is asked.
 *
 * The card is written for a person deciding whether this exact request may
 * leave: the URL as sent, its query decoded one parameter a line (an
 * exfiltrating GET hides its payload there), the headers and the body.
 */
export function httpGate(args: HttpCall): GateQuestion {
  const url = new URL(args.url);
  const lines = requestLines(args);
  if (!isRead(args.method)) {
    lines.push(
      args.body === undefined ? '**Body:** none' : `**Body** (${args.body.length.toLocaleString('en')} characters):\n\n${codeBlock(preview(args.body))}`,
    );
  }
  lines.push(
    isRead(args.method)
      ? `This sends the URL, including its query, to ${codeSpan(url.host)}, and the model reads what it answers. ` +
          'A redirect is not followed unless you approve that too, on a card of its own.'
      : `This sends the request, including the URL's query, to ${codeSpan(url.host)}; what it changes there may not be reversible. ` +
          'Redirects are not followed.',
  );
  return { title: `${args.method} to ${url.host}`, description: lines.filter((line) => line !== '').join('\n\n') };
}

/** The method, the URL as sent, its query decoded and the headers: what every card about this request shows. */
export function requestLines(args: HttpCall): string[] {
  const url = new URL(args.url);
  const headers = Object.entries(args.headers ?? {});
  return [
    `**Method:** ${args.method}`,
    `**URL:** ${codeSpan(url.href)}`,
    describeQuery(url),
    headers.length === 0 ? '**Headers:** none' : `**Headers:**\n${headers.map(([name, value]) => `- ${codeSpan(`${name}: ${value}`)}`).join('\n')}`,
  ].filter((line) => line !== '');
}

/** Each parameter decoded as the server will read it, on its own line. */
function describeQuery(url: URL): string {
  const params = [...url.searchParams];
  if (params.length === 0) return '';
  const count = params.length === 1 ? '1 parameter' : `${params.length} parameters`;
  return `**Query** (${count}, decoded):\n${params.map(([name, value]) => `- ${codeSpan(name)} = ${value === '' ? '(empty)' : codeSpan(value)}`).join('\n')}`;
}

function preview(body: string): string {
  return body.length > MAX_BODY_PREVIEW ? `${body.slice(0, MAX_BODY_PREVIEW)}\n… (${body.length - MAX_BODY_PREVIEW} more characters)` : body;
}
