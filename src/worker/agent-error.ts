/** An error from the worker, rebuilt on the page with its name and code. */
export class AgentError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The page gave up waiting for a call: its signal was aborted. The worker may still finish the intent. */
export class AgentAbortError extends AgentError {
  constructor() {
    super('AbortError', 'The request to the agent was cancelled.');
  }
}
