/**
 * RFC 9110 `token` (one or more tchar): what a header name must be. One
 * definition for every place that takes a header name from outside — a tool's
 * request, an MCP server's headers, an endpoint's custom headers — each with
 * words of its own for the user.
 */
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
