/** The other tabs of this browser (a BroadcastChannel in the browser). */
export interface TabsPort {
  /** Asks the tab that runs the conversation, if another one does, to stop that run (its `Engine.stop`). */
  requestStop(conversationId: string): void;
}
