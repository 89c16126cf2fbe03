/**
 * Plain http carries an MCP server's calls, results and any token in clear:
 * anyone on the network could read them, or rewrite the server's tools and
 * answers. It is for a server on this computer only (a stdio gateway), as it
 * is for the model (src/storage/endpoint-origin.ts). Zod-free: Settings'
 * form says it before anything is sent to the worker.
 */
export const PLAIN_HTTP_MCP_REFUSED = 'Use https:// for this server: plain http:// is allowed only for a server on this computer (localhost, 127.0.0.1 or [::1]).';
