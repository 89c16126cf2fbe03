import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerPreflight, setCorsHeaders } from './cors.ts';
import { handleChat } from './handle-chat.ts';
import { handleControl } from './handle-control.ts';
import { isAuthorized } from './is-authorized.ts';
import { modelJson, modelsList } from './models-list.ts';
import { openAiError } from './openai-error.ts';
import { randomId } from './random-id.ts';
import { BodyTooLargeError, readRequest } from './read-request.ts';
import { sendJson } from './send-json.ts';
import type { ServerState } from './server-state.ts';

const MODEL_PATH = /^\/v1\/models\/([^/]+)$/;

/**
 * Routes one request. Every response carries CORS headers and an x-request-id, like OpenAI's.
 * `receivedAt`: when the request's head arrived (see RecordedRequest).
 */
export async function handleRequest(state: ServerState, req: IncomingMessage, res: ServerResponse, receivedAt: number): Promise<void> {
  setCorsHeaders(req, res);
  res.setHeader('x-request-id', randomId('req_'));

  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const signal = AbortSignal.any([state.closing, gone.signal]);

  let request;
  try {
    request = await readRequest(req, receivedAt);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    sendJson(res, 413, openAiError(413, error.message));
    return;
  }

  // The harness talking to itself is not traffic from the app under test, so it stays
  // out of the log that tests count.
  const isControl = request.path.startsWith('/_control/');
  if (!isControl) state.log.add(request);

  if (request.method === 'OPTIONS') return answerPreflight(req, res);
  if (isControl) return handleControl(state, request, res);

  if (request.path.startsWith('/sink/')) {
    sendJson(res, 200, { ok: true, hit: state.log.countPath(request.path) });
    return;
  }
  if (request.path === '/v1/chat/completions' && request.method === 'POST') {
    return handleChat(state, request, res, signal);
  }
  if (request.path.startsWith('/v1/models') && request.method === 'GET') {
    if (!isAuthorized(state, request)) return sendJson(res, 401, openAiError(401));
    if (request.path === '/v1/models') return sendJson(res, 200, modelsList(state.models));
    const id = MODEL_PATH.exec(request.path)?.[1];
    const model = id === undefined ? undefined : state.models.find((m) => m === decodeURIComponent(id));
    if (model !== undefined) return sendJson(res, 200, modelJson(model));
  }
  sendJson(res, 404, {
    error: {
      message: `fake-llm: nothing at ${request.method} ${request.path}`,
      type: 'invalid_request_error',
      param: null,
      code: 'unknown_url',
    },
  });
}
