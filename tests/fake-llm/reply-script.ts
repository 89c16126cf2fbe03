import type { RecordedChatRequest } from './recorded-request.ts';
import type { Reply } from './reply.ts';

/** Chooses a reply for a request from the request itself; undefined passes to the next rule. */
export type ReplyRule = (request: RecordedChatRequest) => Reply | undefined;

/**
 * The scripted side of the conversation: queued replies are used first, in order,
 * then rules in the order they were added. Queue first, so a test can force one
 * specific answer (a fault, say) on top of rules that describe the normal flow.
 */
export class ReplyScript {
  #queue: Reply[] = [];
  #rules: ReplyRule[] = [];

  enqueue(replies: Reply[]): void {
    this.#queue.push(...replies);
  }

  addRule(rule: ReplyRule): void {
    this.#rules.push(rule);
  }

  /** Replies still waiting in the queue — a test can assert its script was used up. */
  get pending(): number {
    return this.#queue.length;
  }

  next(request: RecordedChatRequest): Reply | undefined {
    const queued = this.#queue.shift();
    if (queued) return queued;
    for (const rule of this.#rules) {
      const reply = rule(request);
      if (reply) return reply;
    }
    return undefined;
  }

  clear(): void {
    this.#queue = [];
    this.#rules = [];
  }
}
