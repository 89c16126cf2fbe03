import type { IncomingMessage } from 'node:http';
import type { RecordedRequest } from './recorded-request.ts';

/** Generous for a chat transcript, small enough that a runaway client cannot exhaust memory. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor() {
    super(`fake-llm: request body larger than ${MAX_BODY_BYTES} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** Reads the whole request and turns it into a log entry; `receivedAt` is when its head arrived. */
export async function readRequest(req: IncomingMessage, receivedAt: number): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(buffer);
  }
  const url = new URL(req.url ?? '/', 'http://fake-llm.invalid');
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    search: url.search,
    headers: flattenHeaders(req.headers),
    body: parseBody(Buffer.concat(chunks).toString('utf8')),
    receivedAt,
    at: Date.now(),
  };
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  // Prototype-free: header names come from the client and may be `__proto__`.
  const flat: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON is a legitimate body (a form, plain text to the sink); keep it as text.
    return text;
  }
}
