import type { IncomingMessage } from 'node:http';

/** Large enough for any page of documents a test sends, small enough that a runaway client cannot exhaust memory. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export class BadRequestBody extends Error {
  override readonly name = 'BadRequestBody';
}

/** The request's JSON body; undefined when there is none. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BadRequestBody(`body larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadRequestBody(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
