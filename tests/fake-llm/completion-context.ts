import type { ChatRequestBody } from './chat-request-body.ts';
import { randomId } from './random-id.ts';

/** What every chunk or completion of one answer shares. */
export interface CompletionContext {
  id: string;
  created: number;
  model: string;
  request: ChatRequestBody;
}

export function completionContext(request: ChatRequestBody): CompletionContext {
  return {
    id: randomId('chatcmpl-'),
    created: Math.floor(Date.now() / 1000),
    model: request.model || 'fake-model',
    request,
  };
}
