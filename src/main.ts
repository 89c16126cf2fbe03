// First: configures zod before any schema is built (see zod-config.ts).
import './zod-config.ts';
import { PausepointDb } from './storage/db.ts';
import type { SettingsInput } from './storage/settings-repo.ts';
import './ui/app.css';
import { isOAuthCallback } from './ui/mcp/oauth-callback-path.ts';
import { startApp } from './ui/start-app.ts';
import { afterNextPaint } from './ui/state/after-paint.ts';
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
  if (import.meta.env.PAUSEPOINT_PROBES) await seedSettings(db);
  const first = await readFirstScreen(db, parseRoute(window.location.hash));
  // index.html's placeholder card, shown while the first screen was read.
  target!.replaceChildren();
  // The agent starts once the first screen is painted, or with the first intent if one comes sooner (agent.worker.ts);
  // within a second in any case, since a tab hidden before its first frame paints none.
  afterNextPaint(() => client.start());
  setTimeout(() => client.start(), 1_000);
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

/**
 * End-to-end tests only (tests/e2e/app.ts: setUpEndpoint): settings a test hands this page before it loads,
 * saved as the setup screen's Save saves them, before the first screen is read. It spares each test a page
 * load of its own to seed them (0.37 s of CPU each). In any other build the condition that calls this is the
 * constant false, and neither it nor the import is in the bundle.
 */
async function seedSettings(db: PausepointDb) {
  const seed = (window as { pausepointE2eSettings?: SettingsInput }).pausepointE2eSettings;
  if (seed) await import('./storage/settings-repo.ts').then(({ saveSettings }) => saveSettings(db, seed));
}

export default start();
