import type { ModelError } from './errors.ts';
import { StorageError } from './storage-error.ts';
import type { ConversationState, Message } from './records/index.ts';

type ErrorState = Extract<ConversationState, { kind: 'error' }>;

/**
 * Where an endpoint failure that retries did not mend leaves the conversation: its words, and Retry.
 * A refused request (not a wrong model or address, 404) names the messages of `history` (what was sent)
 * that carried files: a file the endpoint will not take fails every later request too, so the person
 * is shown where the files are and can make a version without one (engine.editMessage's `keep`).
 */
export function errorState(error: ModelError, history: readonly Message[] = []): ErrorState {
  const code = error.kind === 'auth' ? 'auth' : error.kind === 'bad_request' ? 'bad_request' : error.kind === 'rate_limit' ? 'rate_limit' : error.kind === 'network' ? 'network' : 'server';
  const withFiles = code === 'bad_request' && error.status !== 404 ? history.filter((m) => m.role === 'user' && !!m.attachments?.length).map((m) => m.id) : [];
  return { kind: 'error', code, message: error.message, retryable: true, ...(withFiles.length > 0 ? { withFiles: withFiles.slice(-1_000) } : {}) };
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
