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
// And `slow_job`, which the server runs as a task (MCP's Tasks extension,
// io.modelcontextprotocol/tasks, SEP-2663) for a client that declares the
// extension: the call answers at once with a task handle, `tasks/get` says
// `working` for `seconds` and then `completed` with the result, `tasks/cancel`
// ends it as `cancelled`. The SDK's v2 server has no tasks runtime, so these
// requests are answered here, before the SDK's handler, as plain JSON.
//
// And `ship_job`, a task that asks before it goes on: `tasks/get` says
// `input_required` with an elicitation (who signs the shipping off) under the
// key `signoff` until a `tasks/update` answers it; then it works for `seconds`
// and completes, shipped when the answer accepted, not shipped when declined.
//
// Test hooks, outside MCP: GET /test/calls lists the calls it ran (a greet
// only once it has its answer), with the protocol revision each came on (and
// a slow_job's task id); GET /test/tasks/<id> says how a task stands (and the
// answers its tasks/update requests brought); POST /test/drop?ms=N closes the
// HTTP listener and every open connection, and listens again on the same port
// N ms later: the tasks live on, as on a server whose network went away.
import { createServer } from 'node:http';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const port = Number(process.env.PORT);
const calls = [];

function mcpServer() {
  const server = new McpServer({ name: 'modern', version: '2.0.0' }, { capabilities: { tools: { listChanged: true }, extensions: { [TASKS]: {} } } });
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
  server.registerTool(
    'ship_job',
    { description: 'Ships a job once someone signs it off (as a task that asks, for a client that can follow one)', inputSchema: z.object({ label: z.string(), seconds: z.number() }) },
    async ({ label }, ctx) => {
      calls.push({ tool: 'ship_job', args: { label }, revision: revision(ctx), task: null });
      return { content: [{ type: 'text', text: `Job ${label} not shipped: no task.` }] };
    },
  );
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
  server.registerTool(
    'slow_job',
    { description: 'Runs a job that takes a while (as a task, for a client that can follow one)', inputSchema: z.object({ label: z.string(), seconds: z.number() }) },
    async ({ label }, ctx) => {
      calls.push({ tool: 'slow_job', args: { label }, revision: revision(ctx), task: null });
      return { content: [{ type: 'text', text: `Job ${label} done (no task).` }] };
    },
  );
  return server;
}

const TASKS = 'io.modelcontextprotocol/tasks';
const tasks = new Map();

/** ship_job's question, as its task's `inputRequests` carry it. */
const SIGNOFF = (label) => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: `Who signs off shipping job ${label}?`,
    requestedSchema: { type: 'object', properties: { approver: { type: 'string', title: 'Approver' } }, required: ['approver'] },
  },
});

function resultText(task) {
  if (!task.asks) return `Job ${task.label} done.`;
  const approver = task.signoff?.action === 'accept' ? task.signoff.content?.approver : undefined;
  return approver ? `Job ${task.label} shipped, signed off by ${approver}.` : `Job ${task.label} not shipped: the sign-off was ${task.signoff?.action === 'decline' ? 'declined' : 'not given'}.`;
}

/** The answer to a Tasks request, or null for a request the SDK answers. */
function taskAnswer(request) {
  const params = request?.params ?? {};
  const declared = params._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS] !== undefined;
  const now = () => new Date().toISOString();
  const view = (task) => {
    const waiting = task.asks && task.doneAt === null;
    const status = task.cancelled ? 'cancelled' : waiting ? 'input_required' : Date.now() >= task.doneAt ? 'completed' : 'working';
    return {
      taskId: task.id,
      status,
      createdAt: task.createdAt,
      lastUpdatedAt: now(),
      ttlMs: 600_000,
      pollIntervalMs: 250,
      ...(status === 'input_required' ? { inputRequests: { signoff: SIGNOFF(task.label) } } : {}),
      ...(status === 'completed' ? { result: { content: [{ type: 'text', text: resultText(task) }], isError: false } } : {}),
      ...(status === 'cancelled' ? { statusMessage: 'Cancelled at the client’s request.' } : {}),
    };
  };
  if (request?.method === 'tools/call' && (params.name === 'slow_job' || params.name === 'ship_job') && declared) {
    const id = `task-${tasks.size + 1}`;
    const seconds = 1000 * Number(params.arguments?.seconds ?? 1);
    const asks = params.name === 'ship_job';
    const task = { id, label: String(params.arguments?.label), createdAt: now(), asks, seconds, doneAt: asks ? null : Date.now() + seconds, cancelled: false, responses: [] };
    tasks.set(id, task);
    calls.push({ tool: params.name, args: { label: task.label }, revision: params._meta['io.modelcontextprotocol/protocolVersion'], task: id });
    return { resultType: 'task', ...view(task) };
  }
  if (request?.method === 'tasks/get' || request?.method === 'tasks/cancel' || request?.method === 'tasks/update') {
    const task = tasks.get(params.taskId);
    if (!task) return { error: { code: -32602, message: `Failed to retrieve task: ${params.taskId} not found` } };
    if (request.method === 'tasks/cancel') {
      if (task.doneAt === null || Date.now() < task.doneAt) task.cancelled = true;
      return { resultType: 'complete' };
    }
    if (request.method === 'tasks/update') {
      task.responses.push(params.inputResponses ?? {});
      // Only an outstanding key counts (the spec: others are ignored); the first answer to it goes on.
      const answer = params.inputResponses?.signoff;
      if (task.asks && task.doneAt === null && answer) {
        task.signoff = answer;
        task.doneAt = Date.now() + task.seconds;
      }
      return { resultType: 'complete' };
    }
    return { resultType: 'complete', ...view(task) };
  }
  return null;
}

const handler = createMcpHandler(mcpServer);

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE',
  // 2026-07-28's standard headers (SEP-2243) beside 2025's.
  'access-control-allow-headers': 'content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name',
  'access-control-expose-headers': 'mcp-session-id',
};

const listener = createServer(async (req, res) => {
  if (req.url?.startsWith('/test/tasks/')) {
    const task = tasks.get(req.url.slice('/test/tasks/'.length));
    const body = task ? { ...taskAnswer({ method: 'tasks/get', params: { taskId: task.id } }), responses: task.responses } : null;
    res.writeHead(task ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return;
  }
  if (req.method === 'POST' && req.url?.startsWith('/test/drop')) {
    const ms = Number(new URL(req.url, 'http://x').searchParams.get('ms') ?? 1000);
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{}', () => {
      listener.close();
      listener.closeAllConnections();
      setTimeout(() => listener.listen(port, '127.0.0.1'), ms);
    });
    return;
  }
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
  if (req.method === 'POST') {
    let request;
    try {
      request = JSON.parse(Buffer.concat(chunks).toString());
    } catch {
      request = null;
    }
    const answer = taskAnswer(request);
    if (answer) {
      const body = answer.error ? { jsonrpc: '2.0', id: request.id, error: answer.error } : { jsonrpc: '2.0', id: request.id, result: answer };
      res.writeHead(200, { 'content-type': 'application/json', ...CORS }).end(JSON.stringify(body));
      return;
    }
  }
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
});
listener.listen(port, '127.0.0.1', () => console.error(`mcp-modern-server on http://localhost:${port}/`));
