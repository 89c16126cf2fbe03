import type { ServerResponse } from 'node:http';
import type { ChatRequestBody } from './chat-request-body.ts';

/** Where one scripted reply goes, and the signal that says to stop producing it. */
export interface ReplyTarget {
  res: ServerResponse;
  request: ChatRequestBody;
  /** Aborts when the client disconnects or the server closes. */
  signal: AbortSignal;
}
