import type { ReplyScript } from './reply-script.ts';
import type { RequestLog } from './request-log.ts';

/** What the request handlers share for the lifetime of one fake server. */
export interface ServerState {
  log: RequestLog;
  script: ReplyScript;
  models: readonly string[];
  /** When set, /v1/* answers 401 unless `authorization: Bearer <requireKey>`. */
  requireKey: string | undefined;
  /** Chat requests with `stream_options` get a 400 (see FakeLlmOptions). */
  refuseStreamOptions: boolean;
  /** Aborts on close(), ending scripted delays and slow streams. */
  closing: AbortSignal;
}
