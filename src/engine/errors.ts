import { StorageError } from './storage-error.ts';

/**
 * Errors are split by who is at fault, and cross the worker boundary as a plain
 * `{ name, message, ...fields }` shape (see `toWireError`).
 */

export type ModelErrorKind = 'auth' | 'bad_request' | 'rate_limit' | 'server' | 'network' | 'timeout' | 'dropped' | 'aborted';

/** The endpoint (or the way to it) failed. Adapters translate SDK errors into this. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
    /** From `retry-after`, when the endpoint said how long to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.kind === 'rate_limit' || this.kind === 'server' || this.kind === 'timeout' || this.kind === 'dropped';
  }
}

/** The caller asked for something that cannot be (unknown id, invalid decision). */
export class CallerError extends Error {
  override readonly name = 'CallerError';
  constructor(
    readonly code: 'not_found' | 'invalid_decision' | 'invalid_payload' | 'invalid_form' | 'invalid_rule' | 'invalid_version' | 'busy' | 'elsewhere',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Thrown by a tool when its side effect may or may not have happened: the
 * request left but no answer that says what became of it came back (a
 * timeout, a response CORS hides, a Stop mid-call). The engine records the
 * outcome as unknown and asks the user; it never reports such a call as
 * failed (which invites a retry) nor as done.
 */
export class OutcomeUnknown extends Error {
  override readonly name = 'OutcomeUnknown';
}

/**
 * A run failed and its error state could not be stored either (storage full
 * or failing): no tab will show it unless the host passes this on. The message
 * is the one the error state would have shown.
 */
export class UnrecordedFailure extends Error {
  override readonly name = 'UnrecordedFailure';
  constructor(
    readonly conversationId: string,
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** Storage's "no such record". */
export function isNotFound(error: unknown): boolean {
  return error instanceof StorageError && error.code === 'not_found';
}

export interface WireError {
  name: string;
  message: string;
  code?: string;
}

export function toWireError(error: unknown): WireError {
  if (error instanceof ModelError) return { name: error.name, message: error.message, code: error.kind };
  if (error instanceof CallerError) return { name: error.name, message: error.message, code: error.code };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}
