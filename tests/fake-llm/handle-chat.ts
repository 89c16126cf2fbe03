import type { ServerResponse } from 'node:http';
import { parseChatRequestBody } from './chat-request-body.ts';
import { isAuthorized } from './is-authorized.ts';
import { openAiError } from './openai-error.ts';
import type { RecordedRequest } from './recorded-request.ts';
import { sendJson } from './send-json.ts';
import type { ServerState } from './server-state.ts';
import { writeReply } from './write-reply.ts';

/** Answers POST /v1/chat/completions from the script. */
export async function handleChat(
  state: ServerState,
  request: RecordedRequest,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const body = parseChatRequestBody(request.body);
  const chatRequest = body && { ...request, body };
  // Logged before the key check: a test asserting "the app sent the wrong key" needs to see the request.
  if (chatRequest) state.log.addChat(chatRequest);

  if (!isAuthorized(state, request)) {
    sendJson(res, 401, openAiError(401));
    return;
  }
  if (!chatRequest) {
    sendJson(res, 400, openAiError(400, 'fake-llm: body is not a chat completions request (needs a messages array)'));
    return;
  }
  if (state.refuseStreamOptions && chatRequest.body.stream_options !== undefined) {
    // Before the script: a refused request consumes no scripted reply, so the retry without it gets the one meant for it.
    sendJson(res, 400, openAiError(400, 'Unrecognized request argument supplied: stream_options'), { 'x-should-retry': 'false' });
    return;
  }
  const reply = state.script.next(chatRequest);
  if (!reply) {
    // No retry: the SDK would otherwise repeat an unscripted call with backoff, slowing
    // the failing test down and tripling its entries in the request log.
    sendJson(
      res,
      500,
      { error: { message: 'fake-llm: no scripted reply', type: 'fake_llm_unscripted', param: null, code: null } },
      { 'x-should-retry': 'false' },
    );
    return;
  }
  await writeReply({ res, request: chatRequest.body, signal }, reply);
}
