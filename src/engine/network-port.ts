/** Whether the browser is online (`navigator.onLine` and its events). */
export interface NetworkPort {
  isOnline(): boolean;
  /** Resolves when the network comes back; rejects when aborted. */
  whenOnline(signal: AbortSignal): Promise<void>;
}
