import type { IncomingMessage, ServerResponse } from 'node:http';

const METHODS = 'GET, PUT, POST, HEAD, DELETE';

/**
 * CORS as pouchdb-server does it: the page's origin echoed (not `*`, which a
 * request with credentials may not use) and credentials allowed, so a page on
 * another port of loopback (the app under test) can talk to the fake.
 */
export function setCorsHeaders(req: IncomingMessage, res: ServerResponse): void {
  if (req.headers.origin === undefined) return;
  res.setHeader('access-control-allow-origin', req.headers.origin);
  res.setHeader('access-control-allow-credentials', 'true');
  res.setHeader('vary', 'origin');
}

/** A preflight: the requested headers are echoed, as pouchdb-server's `cors` middleware does. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('access-control-allow-methods', METHODS);
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? 'accept, authorization, content-type');
  // Chrome's private-network checks ask this when a page reaches a loopback server.
  if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('access-control-allow-private-network', 'true');
  res.writeHead(204);
  res.end();
}
