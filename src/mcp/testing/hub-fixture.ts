import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { realSleeps } from '../../engine/testing/fake-clock.ts';
import { harness, pending, tab } from '../../engine/testing/harness.ts';
import type { MemoryRules } from '../../engine/testing/memory-rules.ts';
import { McpHub } from '../mcp-hub.ts';
import type { Sampler } from '../server-requests.ts';
import { inMemorySessions } from './in-memory-session.ts';
import { MemoryMcpStore } from './memory-mcp-store.ts';

type Harness = ReturnType<typeof harness>;

export interface Peer {
  server: McpServer;
  calls: string[];
  /** Resolves the slow tool's pending call. */
  release?: () => void;
}

/** A real SDK server with an echo (read-only), a sum, a slow tool, ones that ask the user, and (`needsLink`) one that needs a link opened first (-32042). */
export function makePeer(peer: Partial<Peer> = {}, { needsLink = false } = {}): Peer {
  const server = new McpServer({ name: 'peer', version: '1.0.0' });
  const state: Peer = { server, calls: [], ...peer };
  server.registerTool(
    'echo',
    { description: 'Echoes back the input string', inputSchema: { message: z.string() }, annotations: { readOnlyHint: true } },
    async ({ message }) => (state.calls.push(`echo:${message}`), { content: [{ type: 'text', text: `Echo: ${message}` }] }),
  );
  server.registerTool(
    'get.sum',
    { description: 'Returns the sum of two numbers', inputSchema: { a: z.number(), b: z.number() }, annotations: { readOnlyHint: true } },
    async ({ a, b }) => (state.calls.push(`sum:${a}+${b}`), { content: [{ type: 'text', text: `The sum is ${a + b}.` }] }),
  );
  server.registerTool('slow', { description: 'Takes its time', inputSchema: {} }, async () => {
    state.calls.push('slow');
    await new Promise<void>((resolve) => (state.release = resolve));
    return { content: [{ type: 'text', text: 'slow done' }] };
  });
  server.registerTool('ask', { description: 'Asks the user', inputSchema: {} }, async () => {
    const answer = await server.server.elicitInput({
      mode: 'form',
      message: 'Who are you?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' }, pets: { type: 'array', items: { type: 'string', enum: ['cat', 'dog'] } } }, required: ['name'] },
    });
    return { content: [{ type: 'text', text: `elicited ${JSON.stringify(answer)}` }] };
  });
  server.registerTool('link', { description: 'Asks the user to open a link', inputSchema: {} }, async () => {
    const answer = await server.server.elicitInput({ mode: 'url', message: 'Finish signing in there.', url: 'https://auth.example.com/start?session=42', elicitationId: 'el-1' });
    return { content: [{ type: 'text', text: `link ${JSON.stringify(answer)}` }] };
  });
  server.registerTool('sample', { description: 'Asks the user’s model', inputSchema: {} }, async () => {
    try {
      const answer = await server.server.createMessage({
        systemPrompt: 'Be brief.',
        messages: [{ role: 'user', content: { type: 'text', text: 'Say **hi**' } }],
        maxTokens: 50,
      });
      return { content: [{ type: 'text', text: `sampled ${JSON.stringify(answer)}` }] };
    } catch (error) {
      return { content: [{ type: 'text', text: `sampling failed: ${(error as Error).message}` }] };
    }
  });
  if (needsLink) {
    server.registerTool('needs-link', { description: 'Refuses until the user opens a link (-32042)', inputSchema: {} }, async () => {
      state.calls.push('needs-link');
      throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Connect your calendar first.', url: 'https://calendar.example.com/connect?state=7', elicitationId: 'el-2' }]);
    });
  }
  return state;
}

const hubs: McpHub[] = [];

/** Has `closeHubs` close these hubs too (ones a test made itself). */
export function closeAfter(...made: McpHub[]): void {
  hubs.push(...made);
}

/** Closes the hubs `hubWithPeer` made, and those given to `closeAfter` (each test file's afterEach). */
export async function closeHubs(): Promise<void> {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
}

/** A hub with one server (a `makePeer` per session it opens), connected, and an engine harness that offers its tools. */
export async function hubWithPeer(options: { trusted?: boolean; rules?: MemoryRules; sample?: Sampler; needsLink?: boolean } = {}) {
  const peers: Peer[] = [];
  const sessions = inMemorySessions(() => {
    const peer = makePeer({}, { needsLink: options.needsLink === true });
    peers.push(peer);
    return peer.server;
  });
  const store = new MemoryMcpStore();
  let n = 0;
  const hub = new McpHub({
    store,
    open: sessions.open,
    newId: () => `srv-${++n}`,
    reserved: new Set(['wait_for_approval', 'transfer']),
    retryDelaysMs: [10],
    ...(options.sample ? { sample: options.sample } : {}),
  });
  hubs.push(hub);
  await hub.start();
  const added = await hub.add({ url: 'http://localhost:18699/mcp', name: 'Everything' });
  await until(() => (store.rows.get(added.id)?.status.kind === 'connected' ? true : undefined), 'connected');
  if (options.trusted) await hub.setTrusted(added.id, true);
  const h = harness([], { dynamicTools: () => hub.tools(), clock: realSleeps(), ...(options.rules ? { rules: options.rules } : {}) });
  return { h, hub, store, peers, sessions, serverId: added.id };
}

/** Polls `probe` every 5 ms until it gives a value (two seconds at most). */
export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Sends `tool`'s call, approves its gate, and waits for the server's card (origin `elicitation`). */
export async function serverCard(h: Harness, tool: string) {
  h.model.push({ calls: [{ name: `everything__${tool}`, args: {} }] }, { text: 'thanks' });
  const { conversationId: id } = await h.engine.send(null, `run ${tool}`);
  const gate = await until(async () => (await pending(h, id))[0], 'the gate');
  await h.engine.decide(gate.id, { type: 'approve' }, tab('tab-A'));
  const card = await until(async () => (await pending(h, id)).find((p) => p.origin === 'elicitation'), 'the server’s card');
  const toolResult = async () => (await h.storage.listMessages(id)).find((m) => m.role === 'tool')?.content;
  return { id, card, toolResult };
}
