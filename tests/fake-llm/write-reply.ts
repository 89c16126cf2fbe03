import { openAiError } from './openai-error.ts';
import type { Reply } from './reply.ts';
import type { ReplyTarget } from './reply-target.ts';
import { sendJson } from './send-json.ts';
import { sleep } from './sleep.ts';
import { writeDrop } from './write-drop.ts';
import { writeMessage } from './write-message.ts';

/** Plays one scripted reply onto a chat-completions response. */
export async function writeReply(target: ReplyTarget, reply: Reply): Promise<void> {
  switch (reply.fault) {
    case undefined:
      return writeMessage(target, reply);
    case 'status': {
      const headers: Record<string, string> =
        reply.retryAfter === undefined ? {} : { 'retry-after': String(reply.retryAfter) };
      sendJson(target.res, reply.status, openAiError(reply.status, reply.message), headers);
      return;
    }
    case 'drop':
      return writeDrop(target, reply);
    case 'hang':
      // Deliberately nothing: the socket stays open until the client aborts or close() destroys it.
      return;
    case 'slow-headers':
      if (await sleep(reply.delayMs, target.signal)) await writeReply(target, reply.then);
      return;
  }
}
