/// <reference lib="webworker" />
// First: configures zod before any schema is built (see zod-config.ts).
import '../zod-config.ts';
import { toWireError } from '../engine/errors.ts';
import { PausepointDb } from '../storage/db.ts';
import { AgentHost } from './agent-host.ts';
import { Request, type Response, type WorkerEvent } from './protocol.ts';
import { START_AGENT } from './start-agent.ts';

declare const self: DedicatedWorkerGlobalScope;

/** Runs the agent in this worker (agent.worker.ts loads it): answers the intents `held` from before it ran, then every one after. */
export function runAgent(held: readonly MessageEvent<unknown>[]): void {
  // The page names the worker after its tab id, so both agree on it from the start.
  const tabId = self.name || crypto.randomUUID();
  const post = (message: Response | WorkerEvent) => self.postMessage(message);
  const host = new AgentHost(new PausepointDb(), tabId, post);

  const receive = (event: MessageEvent<unknown>) => {
    // The page's word to start, when an intent started the agent before it came: nothing more to do.
    if (event.data === START_AGENT) return;
    const parsed = Request.safeParse(event.data);
    if (!parsed.success) {
      const id = typeof (event.data as { id?: unknown })?.id === 'number' ? (event.data as { id: number }).id : -1;
      post({ id, ok: false, error: { name: 'ProtocolError', message: `The worker could not read a request: ${parsed.error.message}` } });
      return;
    }
    const { id, intent } = parsed.data;
    host.handle(intent).then(
      (value) => post({ id, ok: true, value: value ?? null }),
      (error: unknown) => post({ id, ok: false, error: toWireError(error) }),
    );
  };
  self.addEventListener('message', receive);
  for (const event of held) receive(event);

  host.start();
  post({ type: 'ready', tabId });
}
