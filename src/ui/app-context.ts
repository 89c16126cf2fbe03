import { getContext, setContext } from 'svelte';
import type { ModelPrice } from '../engine/spending.ts';
import type { PausepointDb } from '../storage/db.ts';
import type { Settings } from '../storage/settings-repo.ts';
import type { AgentClient } from '../worker/agent-client.ts';
import type { Announcer } from './state/announcer.svelte.ts';
import type { FirstScreen } from './state/first-screen.ts';
import type { Router } from './state/router.svelte.ts';

/** Lists the endpoint's models, or throws an Error whose message says, in plain words, what failed. */
export type TestConnection = (settings: Settings) => Promise<string[]>;

/** What every screen may need, provided once by App.svelte. */
export interface AppContext {
  db: PausepointDb;
  client: AgentClient;
  testConnection: TestConnection;
  router: Router;
  announcer: Announcer;
  /**
   * Called synchronously from the Send click (or Enter): a user gesture, the one
   * moment browsers let a page ask for notification permission and persistent storage.
   */
  onSendGesture?: () => void;
  /** The model prices that apply now (the user's, or the prefilled ones): costs are shown wherever tokens are. */
  prices?: () => readonly ModelPrice[];
  /** The first screen's records, read before the app mounted; each view takes its part once. */
  first?: FirstScreen;
}

/** Exported so component tests can provide a context: `render(C, { props, context: new Map([[APP_CONTEXT, ctx]]) })`. */
export const APP_CONTEXT = Symbol('pausepoint.app');

export function provideApp(context: AppContext): void {
  setContext(APP_CONTEXT, context);
}

export function useApp(): AppContext {
  const context = getContext<AppContext | undefined>(APP_CONTEXT);
  if (!context) throw new Error('Pausepoint: a component needs the app context, which App.svelte provides.');
  return context;
}
