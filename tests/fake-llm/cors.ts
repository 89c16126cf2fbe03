import type { IncomingMessage, ServerResponse } from 'node:http';

/** Headers the browser app must be able to read from error responses (retry logic, bug reports). */
const EXPOSED = 'retry-after, retry-after-ms, x-request-id, x-should-retry';
const METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/**
 * Sets CORS headers on every response. The origin is echoed rather than `*` so the
 * fake also works for requests sent with credentials; `vary` keeps caches honest.
 */
export function setCorsHeaders(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
  res.setHeader('vary', 'origin');
  res.setHeader('access-control-expose-headers', EXPOSED);
}

/**
 * Answers a preflight. The requested headers are echoed because the openai SDK sends
 * `authorization` plus a changing set of `x-stainless-*` headers; a fixed list would
 * break whenever the SDK adds one.
 */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('access-control-allow-methods', METHODS);
  res.setHeader(
    'access-control-allow-headers',
    req.headers['access-control-request-headers'] ?? 'authorization, content-type',
  );
  res.setHeader('access-control-max-age', '600');
  // Chrome's private-network checks ask this when a page reaches a loopback server.
  if (req.headers['access-control-request-private-network'] === 'true') {
    res.setHeader('access-control-allow-private-network', 'true');
  }
  res.writeHead(204);
  res.end();
}
