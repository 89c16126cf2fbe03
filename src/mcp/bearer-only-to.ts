/**
 * fetch that sends a bearer token only to `origin`, the MCP server's: a
 * request anywhere else (the SDK's discovery and token requests go to the
 * authorization server through the same fetch; a legacy SSE server names its
 * own POST endpoint) leaves its `Authorization: Bearer …` behind. The SDK
 * sends it only to the server's URL already; this keeps it so whatever the SDK
 * does next. Other schemes (Basic client authentication at a token endpoint)
 * pass as they are.
 */
export function bearerOnlyTo(origin: string, base: typeof fetch = (...args) => fetch(...args)): typeof fetch {
  return (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (target.origin === origin) return base(input, init);
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    if (!/^bearer\s/i.test(headers.get('authorization') ?? '')) return base(input, init);
    headers.delete('authorization');
    return base(input instanceof Request ? new Request(input, { headers }) : input, { ...init, headers });
  };
}
