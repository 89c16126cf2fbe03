/**
 * `npm run bench:mcp`: Pausepoint's MCP client against the SDK's own (the v2
 * client, negotiating as Pausepoint does), both in Node, on both protocol
 * revisions: the real `@modelcontextprotocol/server-everything` (the v1 SDK:
 * 2025-11-25, Streamable HTTP with a session) and tests/e2e/mcp-modern-server.mjs
 * (the SDK's v2 server: 2026-07-28, no session), on loopback, started here
 * and stopped at the end.
 *
 * - connect + list: a fresh session and `tools/list`, median of CONNECTS runs
 *   (the two sides' runs interleaved, so the machine's other load falls on both).
 *   Pausepoint's side is `openHttpSession` + `listTools` (its CfWorker
 *   validator, its stream watching, its tool-record parsing).
 * - tools/list on an open session, median of LISTS (Pausepoint's side parses each definition).
 * - per call: `echo` round trips, median of CALLS after WARMUP. Pausepoint's
 *   side is what the engine runs for an approved call: the tool's input
 *   checked against the server's JSON Schema, then `execute` through the hub
 *   (session lookup, classification, result formatting). Target ≤ 1.5× the SDK.
 *
 * Bounded: a fixed number of requests, to this machine only.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { performance } from 'node:perf_hooks';
import type { ToolContext } from '../../src/engine/tool-definition.ts';
import { McpHub } from '../../src/mcp/mcp-hub.ts';
import { openHttpSession } from '../../src/mcp/open-http-session.ts';
import { MemoryMcpStore } from '../../src/mcp/testing/memory-mcp-store.ts';
import { startEverything } from '../../tests/e2e/mcp-everything.ts';
import { startModernServer } from '../../tests/e2e/mcp-modern.ts';

const PORT = Number(process.env.BENCH_MCP_PORT ?? 18650);
const CONNECTS = 15;
const WARMUP = 30;
const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 300);
const LISTS = 50;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

/** Both sides' medians, their runs interleaved (A, B, A, B…) so that load from elsewhere on the machine falls on both alike. */
async function timePair(a: () => Promise<unknown>, b: () => Promise<unknown>, times: number, warmup = 0): Promise<[number, number]> {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < times; i++) {
    for (const [side, run] of [a, b].entries()) {
      const start = performance.now();
      await run();
      samples[side]!.push(performance.now() - start);
    }
  }
  return [median(samples[0]), median(samples[1])];
}

const noEvents = { onToolsChanged() {}, onLost() {}, onElicit: async () => ({ action: 'cancel' as const }), onSample: () => Promise.reject(new Error('no sampling in the bench')) };

/** The SDK's own client, as an app without Pausepoint's layers would use it: the same validator and negotiation. */
const sdkClient = () => new Client({ name: 'bench', version: '1' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator(), versionNegotiation: { mode: 'auto' } });

/** The three measures against one server: connect + list, list on an open session, one echo call. */
async function bench(url: string): Promise<{ protocol: string; rows: [string, number, number][] }> {
  const [sdkConnect, ownConnect] = await timePair(
    async () => {
      const client = sdkClient();
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      await client.listTools();
      await transport.terminateSession();
      await client.close();
    },
    async () => {
      const session = await openHttpSession({ url, headers: {}, bearerToken: null }, noEvents);
      await session.listTools();
      await session.close();
    },
    CONNECTS,
    2,
  );

  // The SDK directly: one client, `echo` again and again.
  const client = sdkClient();
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  await client.listTools();

  // Pausepoint: the hub's echo tool, as the engine calls it once approved.
  const store = new MemoryMcpStore();
  const hub = new McpHub({
    store,
    open: (record, events) => openHttpSession({ url: record.url, headers: record.auth.headers, bearerToken: record.auth.bearerToken }, events),
    newId: () => 'bench-server',
    reserved: new Set(),
  });
  await hub.start();
  const added = await hub.add({ url, name: 'everything' });
  for (let i = 0; i < 400 && store.rows.get(added.id)?.status.kind !== 'connected'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const echo = hub.tools().find((tool) => tool.name === 'everything__echo');
  if (!echo) throw new Error('the hub did not list echo');
  const context: ToolContext = {
    conversationId: 'bench',
    toolCallId: 'call',
    turnIndex: 0,
    signal: new AbortController().signal,
    pause: () => Promise.reject(new Error('not used')),
    ask: () => Promise.reject(new Error('not used')),
  };
  // tools/list on an open session: what a re-list after `list_changed` costs (Pausepoint parses each definition).
  const session = await openHttpSession({ url, headers: {}, bearerToken: null }, noEvents);
  const protocol = session.protocolVersion ?? 'unknown';
  const [sdkList, ownList] = await timePair(() => client.listTools(), () => session.listTools(), LISTS, 5);
  await session.close();
  const [sdkCall, ownCall] = await timePair(
    () => client.callTool({ name: 'echo', arguments: { message: 'bench' } }),
    () => echo.execute(echo.input.parse({ message: 'bench' }), context),
    CALLS,
    WARMUP,
  );
  await hub.close();
  await transport.terminateSession();
  await client.close();
  return {
    protocol,
    rows: [
      [`connect + tools/list (median of ${CONNECTS})`, sdkConnect, ownConnect],
      [`tools/list on an open session (median of ${LISTS})`, sdkList, ownList],
      [`one echo call (median of ${CALLS})`, sdkCall, ownCall],
    ],
  };
}

const everything = await startEverything(PORT, 'streamableHttp');
const modern = await startModernServer(PORT + 1);
try {
  const results = [
    { server: 'server-everything', ...(await bench(everything.url)) },
    { server: 'mcp-modern-server (SDK v2)', ...(await bench(modern.url)) },
  ];
  console.log(`MCP client, Node ${process.version}, Streamable HTTP on 127.0.0.1:${PORT} and :${PORT + 1}`);
  console.log('');
  console.log('| server (revision) | measure | SDK directly | Pausepoint | ratio |');
  console.log('|---|---|---|---|---|');
  for (const { server, protocol, rows } of results) {
    for (const [measure, sdk, own] of rows) {
      console.log(`| ${server} (${protocol}) | ${measure} | ${ms(sdk)} | ${ms(own)} | ${(own / sdk).toFixed(2)}×${measure.startsWith('one echo') ? ' (target ≤ 1.5×)' : ''} |`);
    }
  }
} finally {
  await Promise.all([everything.close(), modern.close()]);
}
