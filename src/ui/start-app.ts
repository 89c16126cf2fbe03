import { mount } from 'svelte';
import App from '../App.svelte';
import type { PausepointDb } from '../storage/db.ts';
import type { AgentClient } from '../worker/agent-client.ts';
import type { TestConnection } from './app-context.ts';
import type { FirstScreen } from './state/first-screen.ts';

export interface AppDependencies {
  target: HTMLElement;
  db: PausepointDb;
  client: AgentClient;
  testConnection: TestConnection;
  first?: FirstScreen;
}

/** Mounts the app on `target` with its dependencies; main.ts builds the real ones, tests may pass fakes. */
export function startApp({ target, db, client, testConnection, first }: AppDependencies) {
  return mount(App, { target, props: { db, client, testConnection, first } });
}
