import type { ModelError } from './errors.ts';
import { StorageError } from './storage-error.ts';
import type { ConversationState } from './records/index.ts';

type ErrorState = Extract<ConversationState, { kind: 'error' }>;

/** Where an endpoint failure that retries did not mend leaves the conversation: its words, and Retry. */
export function errorState(error: ModelError): ErrorState {
  const code = error.kind === 'auth' ? 'auth' : error.kind === 'bad_request' ? 'bad_request' : error.kind === 'rate_limit' ? 'rate_limit' : error.kind === 'network' ? 'network' : 'server';
  return { kind: 'error', code, message: error.message, retryable: true };
}

/** Where any other failure of a run leaves it: the browser's storage full, or something unforeseen. */
export function failureState(error: unknown): ErrorState {
  // A storage port reports a full disk as its own error; an IndexedDB write outside it throws the DOM's.
  const quota = (error instanceof StorageError && error.code === 'quota_exceeded') || (error instanceof Error && error.name === 'QuotaExceededError');
  const message = quota
    ? 'The browser ran out of storage space for Pausepoint. Free some space (or delete old conversations), then press Retry.'
    : `Something went wrong: ${error instanceof Error ? error.message : String(error)}`;
  return { kind: 'error', code: quota ? 'storage' : 'internal', message, retryable: true };
}
