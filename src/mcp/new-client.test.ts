import { InMemoryTransport, type CreateMessageRequestParams, type ElicitRequestFormParams, type ElicitRequestURLParams, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { newClient } from './open-http-session.ts';

/** The app's SDK client, initialised by a hand-driven peer, so the peer can send what a well-behaved server never would. */
async function connected() {
  const [clientSide, peer] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  const initialize = (request: JSONRPCMessage) =>
    void peer.send({
      jsonrpc: '2.0',
      id: (request as { id: number }).id,
      result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'peer', version: '1' } },
    });
  peer.onmessage = (message) => {
    received.push(message);
    if ('method' in message && message.method === 'initialize' && 'id' in message) initialize(message);
    // A 2025 server does not know the 2026-07-28 probe: the client falls back to initialize.
    if ('method' in message && message.method === 'server/discover' && 'id' in message) {
      void peer.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  };
  await peer.start();
  const elicited: (ElicitRequestFormParams | ElicitRequestURLParams)[] = [];
  const sampled: CreateMessageRequestParams[] = [];
  const client = newClient({
    onToolsChanged() {},
    onLost() {},
    onElicit: async (params) => (elicited.push(params), { action: 'decline' }),
    onSample: async (params) => (sampled.push(params), { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' }),
  });
  await client.connect(clientSide);
  const ask = async (id: number, method: string, params: Record<string, unknown>) => {
    await peer.send({ jsonrpc: '2.0', id, method, params });
    for (let i = 0; i < 100; i++) {
      const answer = received.find((m) => 'id' in m && m.id === id && !('method' in m));
      if (answer) return answer as { error?: { message: string }; result?: unknown };
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    throw new Error(`no answer to ${method}`);
  };
  return { client, ask, elicited, sampled, capabilities: (received.find((m) => 'method' in m && m.method === 'initialize') as unknown as { params: { capabilities: object } }).params.capabilities };
}

describe('the app’s MCP client', () => {
  it('offers form and URL elicitation, and sampling (each answered through a card)', async () => {
    const { capabilities } = await connected();
    expect(capabilities).toEqual({ elicitation: { form: {}, url: {} }, sampling: {} });
  });

  it('passes sampling requests to the hub, which asks the user', async () => {
    const { ask, sampled } = await connected();
    const answer = await ask(7, 'sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 });
    expect(answer.result).toEqual({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' });
    expect(sampled).toEqual([{ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 }]);
  });

  it('passes http(s) URL elicitation and form elicitation to the hub', async () => {
    const { ask, elicited } = await connected();
    const url = await ask(8, 'elicitation/create', { mode: 'url', message: 'Sign in', url: 'https://example.com/start?x=1', elicitationId: 'e1' });
    expect(url.result).toEqual({ action: 'decline' });
    const form = await ask(9, 'elicitation/create', { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    expect(form.result).toEqual({ action: 'decline' });
    expect(elicited.map((e) => e.message)).toEqual(['Sign in', 'Name?']);
  });

  it('refuses a URL elicitation whose link is not http(s), before any card', async () => {
    const { ask, elicited } = await connected();
    for (const [id, link] of [[10, 'javascript:alert(1)'], [11, 'file:///etc/passwd'], [12, 'data:text/html,hi']] as const) {
      const answer = await ask(id, 'elicitation/create', { mode: 'url', message: 'Open', url: link, elicitationId: `e${id}` });
      expect(answer.error?.message).toContain('Pausepoint opens only http: and https: links for a server');
    }
    expect(elicited).toEqual([]);
  });
});
