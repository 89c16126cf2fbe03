import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { OpenSession } from '../mcp-hub-options.ts';
import { InFlight, sessionOverClient } from '../mcp-session.ts';
import { newClient } from '../open-http-session.ts';

/**
 * Sessions with an SDK McpServer in the same process, over the SDK's
 * in-memory transport: the client side is the app's (its handlers, its error
 * classification), only the wire is missing. `cut()` drops every open link.
 */
export function inMemorySessions(makeServer: () => McpServer) {
  const links: InMemoryTransport[] = [];
  const open: OpenSession = async (_server, events) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = makeServer();
    await server.connect(serverSide);
    const client = newClient(events);
    const inFlight = new InFlight();
    client.onclose = () => {
      inFlight.dropAll('the connection to the server was lost while the call was running (it closed).');
      events.onLost('it closed');
    };
    await client.connect(clientSide);
    links.push(serverSide);
    return sessionOverClient(client, 'streamable_http', inFlight, () => client.close());
  };
  return { open, cut: async () => void (await Promise.all(links.splice(0).map((link) => link.close()))) };
}
