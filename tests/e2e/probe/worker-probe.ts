// Built only for end-to-end tests (PAUSEPOINT_PROBES=1): exposes the real
// worker client and database so a test can drive the engine in Chromium
// without going through the UI.
import '../../../src/zod-config.ts';
import { PausepointDb } from '../../../src/storage/db.ts';
import { saveSettings } from '../../../src/storage/settings-repo.ts';
import { WorkerClient } from '../../../src/worker/worker-client.ts';

const db = new PausepointDb();
// Started on first use: a test that only seeds storage here (tests/e2e/app.ts: setUpEndpoint) starts no agent worker.
let client: WorkerClient | undefined;

Object.assign(globalThis, {
  probe: {
    db,
    get client() {
      return (client ??= new WorkerClient());
    },
    saveSettings: (input: Parameters<typeof saveSettings>[1]) => saveSettings(db, input),
  },
});
document.body.dataset.ready = 'true';
