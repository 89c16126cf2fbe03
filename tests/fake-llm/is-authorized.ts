import type { RecordedRequest } from './recorded-request.ts';
import type { ServerState } from './server-state.ts';

/** True unless the server was started with `requireKey` and this request does not carry it. */
export function isAuthorized(state: ServerState, request: RecordedRequest): boolean {
  return state.requireKey === undefined || request.headers['authorization'] === `Bearer ${state.requireKey}`;
}
