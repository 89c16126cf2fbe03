import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEverything } from '../../tests/e2e/mcp-everything.ts';
import { startModernServer, type ModernServer } from '../../tests/e2e/mcp-modern.ts';
import { tab } from '../engine/testing/harness.ts';
import { definitionHash } from './definition-pin.ts';
import { McpHub } from './mcp-hub.ts';
import { McpToolDefinition } from '../storage/records/mcp-server-record.ts';
import type { SessionEvents } from './mcp-session.ts';
import { openHttpSession } from './open-http-session.ts';
import { closeAfter, closeHubs, serverCard, until } from './testing/hub-fixture.ts';
import { harness } from '../engine/testing/harness.ts';
import { realSleeps } from '../engine/testing/fake-clock.ts';
import { MemoryMcpStore } from './testing/memory-mcp-store.ts';

/** Ports of their own (other files start servers too, and other checkouts run beside this one). */
const BASE = 18_600 + (process.pid % 40) * 2;

const noEvents: SessionEvents = {
  onToolsChanged() {},
  onLost() {},
  onElicit: async () => ({ action: 'cancel' }),
  onSample: () => Promise.reject(new Error('no sampling here')),
};

let modern: ModernServer;
let everything: Awaited<ReturnType<typeof startEverything>>;

beforeAll(async () => {
  [modern, everything] = await Promise.all([startModernServer(BASE), startEverything(BASE + 1, 'streamableHttp')]);
}, 30_000);
afterAll(async () => {
  await closeHubs();
  await Promise.all([modern?.close(), everything?.close()]);
});

describe('the app’s MCP client speaks the revision each server offers (issue 34 part 1)', () => {
  it('speaks 2026-07-28 (no session, no initialize) with a server on the SDK’s v2 server', async () => {
    const session = await openHttpSession({ url: modern.url, headers: {}, bearerToken: null }, noEvents);
    expect(session.protocolVersion).toBe('2026-07-28');
    expect(session.serverInfo).toEqual({ name: 'modern', version: '2.0.0' });
    expect((await session.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['add', 'echo', 'greet', 'ship_job', 'slow_job', 'time']);
    const result = await session.callTool('echo', { message: 'now' }, { signal: new AbortController().signal, timeoutMs: 10_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: now' }]);
    await session.close();
    expect((await modern.calls()).at(-1)).toEqual({ tool: 'echo', args: { message: 'now' }, revision: '2026-07-28' });
  });

  it('falls back to the 2025-11-25 initialize handshake with server-everything (the v1 SDK, which stops at 2025-11-25)', async () => {
    const session = await openHttpSession({ url: everything.url, headers: {}, bearerToken: null }, noEvents);
    expect(session.protocolVersion).toBe('2025-11-25');
    expect((await session.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    const result = await session.callTool('echo', { message: 'then' }, { signal: new AbortController().signal, timeoutMs: 10_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: then' }]);
    await session.close();
  });

  it('pins made through the v1 SDK’s client still hold: every server-everything tool hashes the same as listed through v2', async () => {
    // As the app's client was made before: the same capabilities (server-everything lists some tools only to a client that can answer them).
    const v1 = new ClientV1({ name: 'pausepoint', version: '0.1.0' }, { capabilities: { elicitation: { form: {}, url: {} }, sampling: {} } });
    const transport = new TransportV1(new URL(everything.url));
    await v1.connect(transport);
    const before = await Promise.all((await v1.listTools()).tools.map(async (tool) => [tool.name, await definitionHash(McpToolDefinition.parse(tool))] as const));
    await transport.terminateSession();
    await v1.close();
    const session = await openHttpSession({ url: everything.url, headers: {}, bearerToken: null }, noEvents);
    const after = await Promise.all((await session.listTools()).tools.map(async (tool) => [tool.name, await definitionHash(tool)] as const));
    await session.close();
    expect(before.length).toBeGreaterThan(10);
    expect(new Map(after)).toEqual(new Map(before));
  });

  it('answers a 2026-07-28 input_required elicitation through the same card as a 2025 one, and the retried call carries the answer', async () => {
    const store = new MemoryMcpStore();
    const hub = new McpHub({
      store,
      open: (record, events) => openHttpSession({ url: record.url, headers: record.auth.headers, bearerToken: record.auth.bearerToken }, events),
      newId: () => 'modern',
      reserved: new Set(),
      retryDelaysMs: [10],
    });
    closeAfter(hub);
    await hub.start();
    const added = await hub.add({ url: modern.url, name: 'Everything' });
    const status = await until(() => {
      const now = store.rows.get(added.id)?.status;
      return now?.kind === 'connected' ? now : undefined;
    }, 'connected');
    expect(status).toMatchObject({ transport: 'streamable_http', protocol: '2026-07-28' });
    const h = harness([], { dynamicTools: () => hub.tools(), clock: realSleeps() });
    const { card, toolResult } = await serverCard(h, 'greet');
    expect(card.title).toBe('Everything asks for information');
    expect(card.description).toContain('What is your name?');
    await h.engine.decide(card.id, { type: 'submit', data: { name: 'Ada' } }, tab('tab-A'));
    expect(await until(toolResult, 'the tool result')).toContain('Hello, Ada!');
    // Run once, with the answer: the first round (input_required) runs nothing the server counts.
    expect((await modern.calls()).filter((call) => call.tool === 'greet')).toEqual([{ tool: 'greet', args: { name: 'Ada' }, revision: '2026-07-28' }]);
  });
});
