/// <reference lib="webworker" />
import { START_AGENT } from './start-agent.ts';

declare const self: DedicatedWorkerGlobalScope;

/*
 * The agent worker's entry, kept small: the engine, Dexie, zod and the hosts (run-agent.ts) are fetched, compiled
 * and run only once the page has something for them — its first intent, or its word that the first screen is
 * painted (START_AGENT, from main.ts). On a machine with two cores the worker's start (its script compiled from
 * source, zod building its schemas) otherwise runs beside the page's own start and first render, and slows both.
 * What arrives meanwhile is held, and handed to the agent in order once it runs.
 */
const held: MessageEvent<unknown>[] = [];
let starting = false;

function hold(event: MessageEvent<unknown>): void {
  if (event.data !== START_AGENT) held.push(event);
  if (starting) return;
  starting = true;
  import('./run-agent.ts').then(
    ({ runAgent }) => {
      self.removeEventListener('message', hold);
      runAgent(held);
    },
    (error: unknown) => {
      // Thrown from a task of its own, so the page's Worker gets its `error` event and fails what waits on it.
      setTimeout(() => {
        throw error;
      });
    },
  );
}

self.addEventListener('message', hold);
