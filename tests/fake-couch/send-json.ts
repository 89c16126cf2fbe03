import type { ServerResponse } from 'node:http';

/** Ends the response with a JSON body, as CouchDB answers everything. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'must-revalidate' });
  res.end(text);
}

/** CouchDB's error shape: `{ "error": "conflict", "reason": "Document update conflict." }`. */
export function sendError(res: ServerResponse, status: number, error: string, reason: string): void {
  sendJson(res, status, { error, reason });
}
