import type { ServerResponse } from 'node:http';
import { parseReplies } from './parse-reply.ts';
import type { RecordedRequest } from './recorded-request.ts';
import { sendJson } from './send-json.ts';
import type { ServerState } from './server-state.ts';

/**
 * The HTTP face of enqueue/reset/requests for scripts that run the server in another
 * process (benchmarks). Rules are functions and cannot cross HTTP, so only the queue is
 * scriptable here.
 */
export function handleControl(state: ServerState, request: RecordedRequest, res: ServerResponse): void {
  const route = `${request.method} ${request.path}`;
  switch (route) {
    case 'POST /_control/enqueue': {
      let replies;
      try {
        replies = parseReplies(request.body);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        sendJson(res, 400, { error: { message, type: 'invalid_request_error', param: null, code: null } });
        return;
      }
      state.script.enqueue(replies);
      sendJson(res, 200, { ok: true, pending: state.script.pending });
      return;
    }
    case 'POST /_control/reset':
      state.script.clear();
      state.log.clear();
      sendJson(res, 200, { ok: true });
      return;
    case 'GET /_control/requests':
      sendJson(res, 200, { requests: state.log.all, pending: state.script.pending });
      return;
    default:
      sendJson(res, 404, {
        error: { message: `fake-llm: no control route ${route}`, type: 'invalid_request_error', param: null, code: null },
      });
  }
}
