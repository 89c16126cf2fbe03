// A loopback MCP server on the 2026-07-28 revision, built on the SDK's v2
// server package (@modelcontextprotocol/server: createMcpHandler, which
// serves 2026-07-28 per request with no session, and 2025 clients statelessly
// beside it), behind a plain node:http adapter with CORS for the page. Run as
// its own process by mcp-modern.ts: PORT=… node tests/e2e/mcp-modern-server.mjs
//
// Tools: `echo` (read-only), `add`, and `greet`, which asks for a name through
// an `input_required` result (2026-07-28's elicitation: the client answers and
// calls again with the answer) and greets whoever answered.
//
// And `time`, an MCP App's tool (issue 36): its _meta names the ui:// view it
// is shown in, served as text/html;profile=mcp-app.
//
// Test hooks, outside MCP: GET /test/calls lists the calls it ran (a greet
// only once it has its answer), with the protocol revision each came on.
import { createServer } from 'node:http';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const port = Number(process.env.PORT);
const calls = [];

function mcpServer() {
  const server = new McpServer({ name: 'modern', version: '2.0.0' }, { capabilities: { tools: { listChanged: true } } });
  const revision = (ctx) => ctx.mcpReq.envelope?.['io.modelcontextprotocol/protocolVersion'] ?? 'legacy';
  server.registerTool(
    'echo',
    { description: 'Echoes back the input string', inputSchema: z.object({ message: z.string() }), annotations: { readOnlyHint: true, openWorldHint: false } },
    async ({ message }, ctx) => {
      calls.push({ tool: 'echo', args: { message }, revision: revision(ctx) });
      return { content: [{ type: 'text', text: `Echo: ${message}` }] };
    },
  );
  server.registerTool('add', { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }, ctx) => {
    calls.push({ tool: 'add', args: { a, b }, revision: revision(ctx) });
    return { content: [{ type: 'text', text: `The sum of ${a} and ${b} is ${a + b}.` }] };
  });
  server.registerTool('greet', { description: 'Greets the user by the name they give', inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'name', z.object({ name: z.string() }));
    if (!answer) {
      if (ctx.mcpReq.inputResponses?.name) {
        calls.push({ tool: 'greet', args: { name: null }, revision: revision(ctx) });
        return { content: [{ type: 'text', text: 'No name was given.' }] };
      }
      return inputRequired({
        inputRequests: {
          name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] } }),
        },
      });
    }
    calls.push({ tool: 'greet', args: { name: answer.name }, revision: revision(ctx) });
    return { content: [{ type: 'text', text: `Hello, ${answer.name}!` }] };
  });
  server.registerResource('time-view', 'ui://modern/time.html', { mimeType: 'text/html;profile=mcp-app' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/html;profile=mcp-app', text: '<!doctype html><title>Time</title><p id="time">now</p>' }],
  }));
  server.registerTool(
    'time',
    { description: 'Shows the time in a view', inputSchema: z.object({}), _meta: { ui: { resourceUri: 'ui://modern/time.html' } } },
    async (_args, ctx) => {
      calls.push({ tool: 'time', args: {}, revision: revision(ctx) });
      return { content: [{ type: 'text', text: 'It is now.' }] };
    },
  );
  return server;
}

const handler = createMcpHandler(mcpServer);

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE',
  // 2026-07-28's standard headers (SEP-2243) beside 2025's.
  'access-control-allow-headers': 'content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name',
  'access-control-expose-headers': 'mcp-session-id',
};

createServer(async (req, res) => {
  if (req.url === '/test/calls') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(calls));
    return;
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, CORS).end();
    return;
  }
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const aborted = new AbortController();
  res.on('close', () => aborted.abort());
  const response = await handler.fetch(
    new Request(`http://127.0.0.1:${port}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
      signal: aborted.signal,
    }),
  );
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...CORS });
  if (!response.body) {
    res.end();
    return;
  }
  try {
    for await (const chunk of response.body) res.write(chunk);
  } catch {
    // The client went away mid-stream.
  }
  res.end();
}).listen(port, '127.0.0.1', () => console.error(`mcp-modern-server on http://localhost:${port}/`));
