// First: configures zod before any schema is built (see zod-config.ts).
import './zod-config.ts';
import { PausepointDb } from './storage/db.ts';
import './ui/app.css';
import { isOAuthCallback } from './ui/mcp/oauth-callback-path.ts';
import { startApp } from './ui/start-app.ts';
import { readFirstScreen } from './ui/state/first-screen.ts';
import { parseRoute } from './ui/state/route.ts';
import { WorkerClient } from './worker/worker-client.ts';

const target = document.getElementById('app');
if (!target) throw new Error('Pausepoint: #app element missing from index.html');

/** The app, or — in an MCP server's sign-in popup, back from the authorization server — nothing but the hand-over. */
async function start() {
  // The popup alone loads the relay; an ordinary start does not pay for it.
  if (isOAuthCallback(window.location)) return import('./ui/mcp/relay-oauth-callback.ts').then(({ relayOAuthCallback }) => relayOAuthCallback(window, target!));
  const client = new WorkerClient();
  const db = new PausepointDb();
  const first = await readFirstScreen(db, parseRoute(window.location.hash));
  // index.html's placeholder card, shown while the first screen was read.
  target!.replaceChildren();
  return startApp({
    target: target!,
    db,
    client,
    // Listing models goes through the worker, the only place that talks to the endpoint.
    testConnection: (settings) => client.listModels(settings),
    // Mounted once the first screen's records are read: its first render is the whole screen.
    first,
  });
}

export default start();
