// First: configures zod before any schema is built (see zod-config.ts).
import './zod-config.ts';
import { PausepointDb } from './storage/db.ts';
import './ui/app.css';
import { startApp } from './ui/start-app.ts';
import { WorkerClient } from './worker/worker-client.ts';

const target = document.getElementById('app');
if (!target) throw new Error('Pausepoint: #app element missing from index.html');

const client = new WorkerClient();

export default startApp({
  target,
  db: new PausepointDb(),
  client,
  // Listing models goes through the worker, the only place that talks to the endpoint.
  testConnection: (settings) => client.listModels(settings),
});
