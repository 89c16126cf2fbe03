import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
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
  };
  await peer.start();
  const client = newClient({ onToolsChanged() {}, onLost() {}, onElicit: async () => ({ action: 'decline' }) });
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
  return { client, ask, capabilities: (received.find((m) => 'method' in m && m.method === 'initialize') as unknown as { params: { capabilities: object } }).params.capabilities };
}

describe('the app’s MCP client', () => {
  it('offers form elicitation only, and no sampling', async () => {
    const { capabilities } = await connected();
    expect(capabilities).toEqual({ elicitation: { form: {} } });
  });

  it('refuses sampling with a message that says why', async () => {
    const { ask } = await connected();
    const answer = await ask(7, 'sampling/createMessage', { messages: [], maxTokens: 10 });
    expect(answer.error?.message).toContain('Pausepoint does not let MCP servers use the user’s model: sampling is refused.');
  });

  it('refuses URL-mode elicitation and passes form elicitation to the hub', async () => {
    const { ask } = await connected();
    const url = await ask(8, 'elicitation/create', { mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' });
    expect(url.error?.message).toMatch(/URL-mode|does not open URLs/);
    const form = await ask(9, 'elicitation/create', { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    expect(form.result).toEqual({ action: 'decline' });
  });
});
