import type { ChatRequestBody } from './chat-request-body.ts';

/** One request as the fake server saw it — what tests assert on. */
export interface RecordedRequest {
  method: string;
  /** The pathname, without the query string. */
  path: string;
  /** The query string including `?`, or '' when there is none. */
  search: string;
  /** Lowercased names; repeated headers are joined with ', '. */
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, the raw text otherwise, undefined when empty. */
  body: unknown;
  /**
   * When the request's head had arrived (Node's `request` event, before the body
   * is read), as epoch milliseconds with sub-millisecond precision
   * (`performance.timeOrigin + performance.now()`): comparable with the same
   * expression taken in a browser on this machine, which is how bench:latency
   * times a click against the request it causes.
   */
  receivedAt: number;
  /** Date.now() when the body had been read. */
  at: number;
}

/** A POST /v1/chat/completions whose body looked like a chat request. */
export interface RecordedChatRequest extends RecordedRequest {
  body: ChatRequestBody;
}
